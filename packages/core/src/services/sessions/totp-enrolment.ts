import type { Executor } from '@esign/db';
import { addSessionSecondStep } from '@esign/db/queries/sessions';
import {
  acceptTotpStep,
  countRecoveryCodesLeft,
  deleteTotp,
  findTotp,
  replaceRecoveryCodes,
  savePendingTotp,
} from '@esign/db/queries/two-step';
import { CoreError } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import type { ServiceContext } from '../service-context.ts';
import {
  type CodeUser,
  limitSecondStepFailures,
  recordSecondStepFailure,
  spendSecondStepCode,
} from './second-step.ts';
import type { SessionMeta } from './sessions.ts';
import {
  newRecoveryCodes,
  newTotpSeed,
  openTotpSeed,
  recoveryCodeHash,
  sealTotpSeed,
  totpEnrolment,
  totpStepOf,
} from './totp.ts';

// Setting up and removing the authenticator app from the account page (issue 45 item 1). Every
// change is recorded in the audit log with the user as its actor.

/** The signed-in user a change is for. */
export interface TotpUser extends CodeUser {
  email: string;
  meta: SessionMeta;
  /** The session setting the app up: it counts as opened with a second step from then on. */
  sessionId?: number | null | undefined;
}

export interface TwoStepStatus {
  totp_enabled: boolean;
  recovery_codes_left: number;
}

export async function twoStepStatus(sc: ServiceContext, userId: number): Promise<TwoStepStatus> {
  const totp = await findTotp(sc.db, userId);
  const enabled = Boolean(totp?.confirmed_at);
  return {
    totp_enabled: enabled,
    recovery_codes_left: enabled ? await countRecoveryCodesLeft(sc.db, userId) : 0,
  };
}

/** A new seed waiting for its first code: the key to type and the QR code to scan. */
export async function startTotpEnrolment(
  sc: ServiceContext,
  user: TotpUser,
): Promise<{ secret: string; otpauth_uri: string; qr_code: string }> {
  const seed = newTotpSeed();
  const saved = await savePendingTotp(sc.db, {
    userId: user.userId,
    secretSealed: sealTotpSeed(sc.config, user.userId, seed),
    now: sc.now(),
  });
  if (!saved) {
    throw new CoreError(
      'invalid_request',
      'An authenticator app is already set up. Remove it first to set up another one.',
    );
  }
  const { uri, qrSvg } = await totpEnrolment(seed, {
    issuer: new URL(sc.config.PUBLIC_URL).host,
    label: user.email,
  });
  return { secret: seed, otpauth_uri: uri, qr_code: qrSvg };
}

const auditBy = (user: TotpUser) => ({
  kind: 'user' as const,
  userId: user.userId,
  ip: user.meta.ip,
  userAgent: user.meta.userAgent?.slice(0, 500) ?? null,
});
const scopeOf = (user: TotpUser) => ({ accountId: user.accountId, environment: 'live' as const });

/** The first code confirms the seed; the ten recovery codes are returned this once. */
export async function confirmTotpEnrolment(
  sc: ServiceContext,
  user: TotpUser,
  code: string,
): Promise<{ recovery_codes: string[] }> {
  const now = sc.now();
  const pending = await findTotp(sc.db, user.userId);
  if (!pending || pending.confirmed_at) {
    throw new CoreError('invalid_request', 'Start setting up the authenticator app again.');
  }
  await limitSecondStepFailures(sc, user.userId);
  const step = totpStepOf(openTotpSeed(sc.config, user.userId, pending.secret_sealed), code.trim(), now);
  const codes = newRecoveryCodes();
  const done = await sc.db.transaction().execute(async (tx) => {
    if (step === null || !(await acceptTotpStep(tx, { userId: user.userId, step, confirmed: false, now }))) {
      return false;
    }
    const hashes = codes.map((c) => recoveryCodeHash(sc.config, user.userId, c));
    await replaceRecoveryCodes(tx, { userId: user.userId, hashes, now });
    if (user.sessionId) await addSessionSecondStep(tx, user.sessionId, 'totp');
    await recordAudit(tx, scopeOf(user), { type: 'user.totp_enrolled', by: auditBy(user), now });
    return true;
  });
  if (!done) {
    await recordSecondStepFailure(sc, user, { ...user.meta, purpose: 'enrol' });
    throw new CoreError('invalid_parameter', 'The code is wrong. Enter the code your app shows now.');
  }
  return { recovery_codes: codes };
}

/** Runs `change` once a fresh app code or a recovery code of the user was spent (in one transaction). */
async function withFreshCode<T>(
  sc: ServiceContext,
  input: { user: TotpUser; code: string; purpose: string },
  change: (tx: Executor) => Promise<T>,
): Promise<T> {
  const { user, code, purpose } = input;
  const now = sc.now();
  await limitSecondStepFailures(sc, user.userId);
  const result = await sc.db.transaction().execute(async (tx) => {
    const used = await spendSecondStepCode(tx, sc.config, { ...user, code, now, meta: user.meta });
    return used ? { value: await change(tx) } : null;
  });
  if (result) return result.value;
  await recordSecondStepFailure(sc, user, { ...user.meta, purpose });
  throw new CoreError(
    'invalid_parameter',
    'The code is wrong or was already used. Enter the current code from your app, or a recovery code.',
  );
}

/** Removes the authenticator app (and its recovery codes): only after a fresh code or a recovery code. */
export async function removeTotp(
  sc: ServiceContext,
  user: TotpUser,
  code: string,
): Promise<{ removed: true }> {
  const totp = await findTotp(sc.db, user.userId);
  if (!totp?.confirmed_at) throw new CoreError('not_found', 'No authenticator app is set up');
  await withFreshCode(sc, { user, code, purpose: 'remove' }, async (tx) => {
    await deleteTotp(tx, user.userId);
    await recordAudit(tx, scopeOf(user), { type: 'user.totp_removed', by: auditBy(user), now: sc.now() });
  });
  return { removed: true };
}

/** Ten new recovery codes (the old ones stop working): only after a fresh code or a recovery code. */
export async function renewRecoveryCodes(
  sc: ServiceContext,
  user: TotpUser,
  code: string,
): Promise<{ recovery_codes: string[] }> {
  const totp = await findTotp(sc.db, user.userId);
  if (!totp?.confirmed_at) throw new CoreError('not_found', 'No authenticator app is set up');
  const codes = newRecoveryCodes();
  await withFreshCode(sc, { user, code, purpose: 'recovery_codes' }, async (tx) => {
    const hashes = codes.map((c) => recoveryCodeHash(sc.config, user.userId, c));
    await replaceRecoveryCodes(tx, { userId: user.userId, hashes, now: sc.now() });
    await recordAudit(tx, scopeOf(user), {
      type: 'user.recovery_codes_renewed',
      by: auditBy(user),
      now: sc.now(),
    });
  });
  return { recovery_codes: codes };
}
