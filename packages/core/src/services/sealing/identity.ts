import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { LoadSigningIdentityOptions, SigningIdentity } from '@esign/pdf';
import type { Config } from '../../config.ts';

type IdentityConfig = Pick<Config, 'SIGNING_CERT_P12' | 'SIGNING_CERT_PASSWORD' | 'DATA_DIR'>;
const identities = new Map<string, Promise<SigningIdentity>>();

/**
 * The sealing certificate, loaded once per process (and per configuration): SIGNING_CERT_P12 is a
 * path to a PKCS#12 file when such a file exists, else the PKCS#12 itself in base64; unset, the
 * self-signed identity generated under DATA_DIR/signing is used (created on first use). A failed
 * load is not cached, so the next job retries it.
 */
export function getSigningIdentity(config: IdentityConfig): Promise<SigningIdentity> {
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        config.SIGNING_CERT_P12 ?? null,
        config.SIGNING_CERT_PASSWORD ?? null,
        config.DATA_DIR,
      ]),
    )
    .digest('hex');
  let identity = identities.get(key);
  if (!identity) {
    // Loaded on first use: a process that only seals through the document pool never needs it.
    identity = (async () => {
      const { loadSigningIdentity } = await import('@esign/pdf');
      return loadSigningIdentity(await signingIdentityOptions(config));
    })();
    identities.set(key, identity);
    identity.catch(() => identities.delete(key));
  }
  return identity;
}

/** What loads the sealing certificate (the document pool's workers load it from these too). */
export async function signingIdentityOptions(config: IdentityConfig): Promise<LoadSigningIdentityOptions> {
  const p12 = config.SIGNING_CERT_P12 ? await readP12(config.SIGNING_CERT_P12) : undefined;
  return { p12, password: config.SIGNING_CERT_PASSWORD, dataDir: config.DATA_DIR };
}

/** SIGNING_CERT_P12: a path to an existing file, else base64 of the PKCS#12. */
export async function readP12(value: string): Promise<Uint8Array> {
  const isFile = await stat(value).then(
    (s) => s.isFile(),
    () => false,
  );
  if (isFile) return new Uint8Array(await readFile(value));
  const compact = value.replace(/\s+/g, '');
  if (compact.length >= 16 && compact.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    return new Uint8Array(Buffer.from(compact, 'base64'));
  }
  throw new Error('SIGNING_CERT_P12 is neither an existing file nor a base64-encoded PKCS#12');
}
