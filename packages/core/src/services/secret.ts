import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config.ts';

const cache = new Map<string, Buffer>();

/**
 * The server secret: SECRET_KEY when set (required when several processes do not share DATA_DIR),
 * else a random key generated once into DATA_DIR/secret-key (atomic, so concurrent first starts agree).
 */
export function serverSecret(config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>): Buffer {
  if (config.SECRET_KEY) return Buffer.from(config.SECRET_KEY, 'utf8');
  const dir = resolve(config.DATA_DIR);
  const hit = cache.get(dir);
  if (hit) return hit;
  const file = join(dir, 'secret-key');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, randomBytes(32).toString('base64url'), { mode: 0o600 });
    try {
      linkSync(tmp, file); // fails if another process won the race; then we read theirs
    } catch {
      // keep the existing file
    } finally {
      unlinkSync(tmp);
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
  cache.set(dir, key);
  return key;
}

/**
 * Purpose keys derived so far, by purpose and secret, as KeyObjects: an HMAC under a KeyObject
 * costs a fifth of one under a Buffer key, which Node imports again on every call (a send signs
 * its signers' links, a document of 5,000 pages signs 5,000 page links).
 */
const purposeKeys = new Map<string, KeyObject>();

/** HMAC-SHA256 of `data` under a purpose-specific key derived from the server secret. */
export function hmac(config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>, purpose: string, data: string): Buffer {
  const id = `${purpose}\u0000${config.SECRET_KEY ?? `file:${resolve(config.DATA_DIR)}`}`;
  let key = purposeKeys.get(id);
  if (!key) {
    key = createSecretKey(createHmac('sha256', serverSecret(config)).update(`purpose:${purpose}`).digest());
    if (purposeKeys.size > 100) purposeKeys.clear();
    purposeKeys.set(id, key);
  }
  return createHmac('sha256', key).update(data).digest();
}

export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
