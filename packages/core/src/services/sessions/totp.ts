import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Config } from '../../config.ts';
import { openSecret, type SealedAt, sealSecret } from '../sealed-secrets.ts';
import { hmac } from '../secret.ts';

// Authenticator-app codes (RFC 6238, the `otpauth` library): 6 digits, 30-second steps, SHA-1 (what
// every authenticator app reads from a QR code). Seeds are sealed at rest (sealed-secrets.ts);
// recovery codes are kept as a keyed hash (HMAC under the server secret).

const PERIOD = 30;
/** Codes of the step before and after now are accepted too (clocks drift). */
const WINDOW = 1;
const RECOVERY_CODE_COUNT = 10;

type SecretConfig = Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>;

const seedAt = (userId: number): SealedAt => ({
  purpose: 'authenticator app seeds',
  aad: `user_totp.secret|${userId}`,
});

/** A new random seed (160 bits, RFC 4226's recommendation), in base32 as apps take it. */
export const newTotpSeed = (): string => new Secret({ size: 20 }).base32;

export const sealTotpSeed = (config: SecretConfig, userId: number, seed: string) =>
  sealSecret(config, seedAt(userId), seed);

export const openTotpSeed = (config: SecretConfig, userId: number, sealed: string) =>
  openSecret(config, seedAt(userId), sealed);

function totpOf(seed: string, labels: { issuer: string; label: string }) {
  return new TOTP({
    ...labels,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(seed),
  });
}

/** The otpauth:// URI and its QR code (an SVG data URL) an authenticator app scans. */
export async function totpEnrolment(
  seed: string,
  labels: { issuer: string; label: string },
): Promise<{ uri: string; qrSvg: string }> {
  const uri = totpOf(seed, labels).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { uri, qrSvg: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The time step of a 6-digit code valid at `now` (within one step either side), or null. */
export function totpStepOf(seed: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpOf(seed, { issuer: '', label: '' });
  const timestamp = now.getTime();
  const delta = totp.validate({ token: code, timestamp, window: WINDOW });
  if (delta === null) return null;
  return totp.counter({ timestamp }) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes `xxxxx-xxxxx` (about 49 bits each), shown to the user once. */
export function newRecoveryCodes(): string[] {
  const one = () =>
    Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const c = one();
    return `${c.slice(0, 5)}-${c.slice(5)}`;
  });
}

/** Whether what was typed looks like a recovery code rather than an app code. */
export const looksLikeRecoveryCode = (input: string) => normalRecoveryCode(input).length === 10;

const normalRecoveryCode = (input: string) => input.toLowerCase().replace(/[\s-]/g, '');

/** The stored form of a recovery code: an HMAC bound to its user. */
export function recoveryCodeHash(config: SecretConfig, userId: number, code: string): string {
  return hmac(config, 'recovery codes', `${userId}:${normalRecoveryCode(code)}`).toString('hex');
}
