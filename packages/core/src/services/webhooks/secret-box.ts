import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Scope } from '../../context.ts';
import { serverSecret } from '../secret.ts';

// Signing secrets at rest: AES-256-GCM under a key derived from the server secret. The
// deliveries need the secret itself (to sign), so it is encrypted, not hashed.

const SEALED_PREFIX = 'enc:v1:';
const keyCache = new Map<string, Buffer>();

function secretsKey(config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>): Buffer {
  const cacheKey = config.SECRET_KEY ? `key:${config.SECRET_KEY}` : `dir:${config.DATA_DIR}`;
  let key = keyCache.get(cacheKey);
  if (!key) {
    key = Buffer.from(
      hkdfSync('sha256', serverSecret(config), 'esign', 'webhook endpoint signing secrets', 32),
    );
    keyCache.set(cacheKey, key);
  }
  return key;
}

// Binds a stored secret to its account and side, so a copied column value does not open elsewhere.
const secretAad = (scope: Scope) =>
  Buffer.from(`webhook_endpoints.secret|${scope.accountId}|${scope.environment}`);

export function sealEndpointSecret(config: Config, scope: Scope, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretsKey(config), iv);
  cipher.setAAD(secretAad(scope));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${SEALED_PREFIX}${iv.toString('base64url')}.${sealed.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

export function openEndpointSecret(config: Config, scope: Scope, stored: string): string {
  if (!stored.startsWith(SEALED_PREFIX)) throw new Error('stored webhook secret is not in a known format');
  const [iv, sealed, tag] = stored.slice(SEALED_PREFIX.length).split('.');
  if (!iv || sealed === undefined || !tag) throw new Error('stored webhook secret is malformed');
  const decipher = createDecipheriv('aes-256-gcm', secretsKey(config), Buffer.from(iv, 'base64url'));
  decipher.setAAD(secretAad(scope));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}
