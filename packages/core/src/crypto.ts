import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

const scryptAsync = promisify(scrypt) as (
  pw: string,
  salt: Buffer,
  len: number,
  opts: object,
) => Promise<Buffer>;

export const sha256Hex = (data: string | Uint8Array): string =>
  createHash('sha256').update(data).digest('hex');

/** URL-safe random token with `bytes` of entropy. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/**
 * Passwords are hashed with argon2id (OWASP's first choice: 19 MiB, 2 passes, 1 lane), in PHC
 * string format. Hashes written before argon2id (`scrypt$N$r$p$salt$key`) still verify, and
 * `passwordNeedsRehash` tells the sign-in to replace them.
 */
const ARGON2 = {
  algorithm: 2 as const /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};
const ARGON2_PREFIX = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$`;

export async function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, ARGON2);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2')) {
    try {
      return await argon2Verify(stored, password);
    } catch {
      return false;
    }
  }
  if (stored.startsWith('scrypt$')) return verifyLegacyScrypt(password, stored);
  return false;
}

/** True for hashes in an older scheme or with weaker parameters than today's. */
export function passwordNeedsRehash(stored: string): boolean {
  return !stored.startsWith(ARGON2_PREFIX);
}

// The scheme `esign account create --password` used before argon2id: scrypt N=2^15, r=8, p=1.
async function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, key] = stored.split('$');
  if (!salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}
