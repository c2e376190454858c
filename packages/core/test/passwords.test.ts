import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, passwordNeedsRehash, verifyPassword } from '../src/crypto.ts';

/** A hash exactly as `esign account create --password` stored it before argon2id. */
function legacyScryptHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$32768$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

describe('password hashing (operations.md §5: memory-hard hash)', () => {
  it('stores argon2id in PHC format and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(passwordNeedsRehash(stored)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('keeps scrypt hashes written before argon2id verifiable, and asks for a rehash', async () => {
    const old = legacyScryptHash('old password');
    expect(await verifyPassword('old password', old)).toBe(true);
    expect(await verifyPassword('wrong', old)).toBe(false);
    expect(passwordNeedsRehash(old)).toBe(true);
  });

  it('rejects unknown or malformed stored values instead of throwing', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('x', '$argon2id$garbage')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1$2')).toBe(false);
  });
});
