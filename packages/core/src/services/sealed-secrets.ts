import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { serverSecret } from './secret.ts';

// Secrets the service must read back (webhook signing secrets, authenticator-app seeds), at rest:
// AES-256-GCM under a key derived (HKDF) from the server secret for each purpose. The additional
// data binds a stored value to its row, so a value copied into another row does not open.

const SEALED_PREFIX = 'enc:v1:';
const keyCache = new Map<string, Buffer>();

type SecretConfig = Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>;

/** What a sealed value is for (the key's HKDF info) and which row it belongs to (the AAD). */
export interface SealedAt {
  purpose: string;
  aad: string;
}

function purposeKey(config: SecretConfig, purpose: string): Buffer {
  const cacheKey = `${config.SECRET_KEY ? `key:${config.SECRET_KEY}` : `dir:${config.DATA_DIR}`}|${purpose}`;
  let key = keyCache.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', serverSecret(config), 'esign', purpose, 32));
    keyCache.set(cacheKey, key);
  }
  return key;
}

export function sealSecret(config: SecretConfig, at: SealedAt, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', purposeKey(config, at.purpose), iv);
  cipher.setAAD(Buffer.from(at.aad));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${SEALED_PREFIX}${iv.toString('base64url')}.${sealed.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

/** Opens a sealed value; throws when it is not one, or was sealed under another key or row. */
export function openSecret(config: SecretConfig, at: SealedAt, stored: string): string {
  if (!stored.startsWith(SEALED_PREFIX))
    throw new Error(`stored ${at.purpose} value is not in a known format`);
  const [iv, sealed, tag] = stored.slice(SEALED_PREFIX.length).split('.');
  if (!iv || sealed === undefined || !tag) throw new Error(`stored ${at.purpose} value is malformed`);
  const decipher = createDecipheriv(
    'aes-256-gcm',
    purposeKey(config, at.purpose),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAAD(Buffer.from(at.aad));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}
