import { createECDH } from 'node:crypto';
import type { Config } from '@esign/core';
import { hmac } from '@esign/core/oauth';

// P-256's order: a derived private scalar must lie in [1, n-1].
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/**
 * The authorization server's keys, derived from the server secret (SECRET_KEY, or the one generated
 * into DATA_DIR), so every process of a scaled deployment has the same ones without another
 * setting: the keys that sign its cookies (interaction state), and one ES256 signing key (it issues
 * no signed tokens to MCP clients, whose access tokens are opaque, but it needs a key to start).
 */
export function oauthCookieKeys(config: Config): string[] {
  return [hmac(config, 'oauth-cookie-keys', 'v1').toString('base64url')];
}

export function oauthSigningJwks(config: Config): { keys: Record<string, string>[] } {
  let d = BigInt(`0x${hmac(config, 'oauth-signing-key', 'v1').toString('hex')}`) % (P256_ORDER - 1n);
  d += 1n;
  const priv = Buffer.from(d.toString(16).padStart(64, '0'), 'hex');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(priv);
  const pub = ecdh.getPublicKey();
  return {
    keys: [
      {
        kty: 'EC',
        crv: 'P-256',
        alg: 'ES256',
        use: 'sig',
        kid: hmac(config, 'oauth-signing-kid', 'v1').toString('base64url').slice(0, 16),
        d: priv.toString('base64url'),
        x: pub.subarray(1, 33).toString('base64url'),
        y: pub.subarray(33, 65).toString('base64url'),
      },
    ],
  };
}
