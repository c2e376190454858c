import type { Executor } from '@esign/db';
import {
  deletePasskey,
  findPasskeyByCredentialId,
  insertPasskey,
  insertWebauthnChallenge,
  listPasskeys,
  type PasskeyRow,
  renamePasskey,
  usePasskey,
  useWebauthnChallenge,
} from '@esign/db/queries/passkeys';
import { addSessionSecondStep } from '@esign/db/queries/sessions';
import { findUserStanding } from '@esign/db/queries/users';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Config } from '../../config.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import type { ServiceContext } from '../service-context.ts';

// Passkeys (WebAuthn, issue 45 item 2) with @simplewebauthn/server: the library checks the
// challenge, the origin and RP ID (both from PUBLIC_URL), the signature and the signature
// counter. Registration needs a signed-in session; a passkey signs in alone (a discoverable
// credential, user verification required) or as the second step after a password.

const WEBAUTHN_TTL_MS = 5 * 60_000;

/** The relying party: PUBLIC_URL's host name is the RP ID, its origin the only accepted origin. */
export function relyingParty(config: Pick<Config, 'PUBLIC_URL'>) {
  const url = new URL(config.PUBLIC_URL);
  return { rpID: url.hostname, origin: url.origin, rpName: url.host };
}

/** The WebAuthn user handle of a user: stable, so an authenticator keeps one credential per user. */
const userHandle = (userId: number) => new TextEncoder().encode(`esign-user-${userId}`);

export interface PasskeyDto {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** Synced to other devices by its provider (iCloud Keychain, Google Password Manager, ...). */
  backed_up: boolean;
}

const toDto = (p: PasskeyRow): PasskeyDto => ({
  id: p.id,
  name: p.name,
  created_at: p.created_at.toISOString(),
  last_used_at: p.last_used_at?.toISOString() ?? null,
  backed_up: p.backed_up,
});

export interface PasskeyUser {
  userId: number;
  accountId: number;
  email: string;
  name: string | null;
  meta: { ip: string | null; userAgent: string | null };
}

const auditBy = (user: Pick<PasskeyUser, 'userId' | 'meta'>) => ({
  kind: 'user' as const,
  userId: user.userId,
  ip: user.meta.ip,
  userAgent: user.meta.userAgent?.slice(0, 500) ?? null,
});
const scopeOf = (accountId: number) => ({ accountId, environment: 'live' as const });

export async function listUserPasskeys(sc: ServiceContext, userId: number): Promise<PasskeyDto[]> {
  return (await listPasskeys(sc.db, userId)).map(toDto);
}

const transportsOf = (p: PasskeyRow) => p.transports as AuthenticatorTransport[];

async function newChallenge(
  db: Executor,
  values: { purpose: 'register' | 'sign_in'; userId: number | null; challenge: string; now: Date },
): Promise<string> {
  const ticket = randomToken(32);
  await insertWebauthnChallenge(db, {
    ...values,
    ticketHash: sha256Hex(ticket),
    expiresAt: new Date(values.now.getTime() + WEBAUTHN_TTL_MS),
  });
  return ticket;
}

const EXPIRED = 'This passkey request has expired or was already used. Try again.';

/** Options for `navigator.credentials.create()`: a discoverable credential, none of the user's again. */
export async function startPasskeyRegistration(
  sc: ServiceContext,
  user: PasskeyUser,
): Promise<{ ticket: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const { rpID, rpName } = relyingParty(sc.config);
  const existing = await listPasskeys(sc.db, user.userId);
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    userID: userHandle(user.userId),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const ticket = await newChallenge(sc.db, {
    purpose: 'register',
    userId: user.userId,
    challenge: options.challenge,
    now: sc.now(),
  });
  return { ticket, options };
}

/** Verifies the browser's new credential and stores it under the name the user gave. */
export async function finishPasskeyRegistration(
  sc: ServiceContext,
  user: PasskeyUser & { sessionId?: number | null },
  input: { ticket: string; name: string; response: RegistrationResponseJSON },
): Promise<PasskeyDto> {
  const now = sc.now();
  const { rpID, origin } = relyingParty(sc.config);
  // The ticket is spent in its own statement: a refused answer cannot be tried again with it.
  const pending = await useWebauthnChallenge(sc.db, {
    ticketHash: sha256Hex(input.ticket),
    purpose: 'register',
    now,
  });
  if (!pending || pending.user_id !== user.userId) throw new CoreError('invalid_request', EXPIRED);
  return sc.db.transaction().execute(async (tx) => {
    const result = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: pending.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    }).catch((e: unknown) => refused(e));
    if (!result.verified) refused(null);
    const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
    const id = await insertPasskey(tx, {
      userId: user.userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      name: input.name,
      now,
    });
    if (!id) throw new CoreError('invalid_request', 'This passkey is already registered');
    await recordAudit(tx, scopeOf(user.accountId), {
      type: 'user.passkey_added',
      by: auditBy(user),
      data: { passkey_id: id, name: input.name },
      now,
    });
    // A session that sets up a passkey counts as opened with a second step (the account rule).
    if (user.sessionId) await addSessionSecondStep(tx, user.sessionId, 'passkey');
    return {
      id,
      name: input.name,
      created_at: now.toISOString(),
      last_used_at: null,
      backed_up: credentialBackedUp,
    };
  });
}

function refused(e: unknown): never {
  const why = e instanceof Error ? `: ${e.message}` : '';
  throw new CoreError('invalid_parameter', `The passkey was refused${why}`);
}

export async function renameUserPasskey(
  sc: ServiceContext,
  user: Pick<PasskeyUser, 'userId'>,
  input: { id: number; name: string },
): Promise<{ id: number; name: string }> {
  if (!(await renamePasskey(sc.db, { userId: user.userId, ...input }))) {
    throw new CoreError('not_found', `Passkey ${input.id} was not found`);
  }
  return input;
}

/** Deletes one of the user's passkeys (another user's is not found); recorded in the audit log. */
export async function removeUserPasskey(
  sc: ServiceContext,
  user: PasskeyUser,
  id: number,
): Promise<{ removed: true }> {
  const now = sc.now();
  await sc.db.transaction().execute(async (tx) => {
    const gone = await deletePasskey(tx, { userId: user.userId, id });
    if (!gone) throw new CoreError('not_found', `Passkey ${id} was not found`);
    await recordAudit(tx, scopeOf(user.accountId), {
      type: 'user.passkey_removed',
      by: auditBy(user),
      data: { passkey_id: id, name: gone.name },
      now,
    });
  });
  return { removed: true };
}

/**
 * Options for `navigator.credentials.get()`. Without `userId`: any discoverable credential of this
 * site (a passkey alone, user verification required); with it: one of that user's (the second step).
 */
export async function passkeyRequestOptions(
  sc: ServiceContext,
  userId: number | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rpID } = relyingParty(sc.config);
  const allow = userId === null ? [] : await listPasskeys(sc.db, userId);
  return generateAuthenticationOptions({
    rpID,
    allowCredentials: allow.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    userVerification: userId === null ? 'required' : 'preferred',
  });
}

/** A passkey sign-in: the options and the ticket that brings their challenge back. */
export async function startPasskeySignIn(
  sc: ServiceContext,
): Promise<{ ticket: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await passkeyRequestOptions(sc, null);
  const ticket = await newChallenge(sc.db, {
    purpose: 'sign_in',
    userId: null,
    challenge: options.challenge,
    now: sc.now(),
  });
  return { ticket, options };
}

/**
 * Checks an assertion against the stored credential (the library checks challenge, origin, RP ID,
 * signature, user verification and that the counter went up) and records the new counter. Returns
 * the passkey's user; throws when the passkey is unknown, belongs to another user than `userId`
 * (when given), or the assertion is refused.
 */
export async function verifyPasskeyAssertion(
  tx: Executor,
  config: Pick<Config, 'PUBLIC_URL'>,
  input: {
    response: AuthenticationResponseJSON;
    challenge: string;
    userId: number | null;
    now: Date;
  },
): Promise<{ userId: number; passkeyId: number }> {
  const { rpID, origin } = relyingParty(config);
  const passkey = await findPasskeyByCredentialId(tx, input.response.id);
  if (!passkey || (input.userId !== null && passkey.user_id !== input.userId)) {
    throw new CoreError('invalid_parameter', 'This passkey is not registered here');
  }
  const handle = input.response.response.userHandle;
  if (handle && handle !== Buffer.from(userHandle(passkey.user_id)).toString('base64url')) {
    throw new CoreError('invalid_parameter', 'This passkey is not registered here');
  }
  const result = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: input.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: passkey.credential_id,
      publicKey: new Uint8Array(passkey.public_key),
      counter: passkey.counter,
      transports: transportsOf(passkey),
    },
    requireUserVerification: input.userId === null,
  }).catch((e: unknown) => refused(e));
  if (!result.verified) refused(null);
  const used = await usePasskey(tx, {
    id: passkey.id,
    oldCounter: passkey.counter,
    newCounter: result.authenticationInfo.newCounter,
    now: input.now,
  });
  if (!used) refused(null);
  return { userId: passkey.user_id, passkeyId: passkey.id };
}

/** The passkey's user, when they may still sign in. */
export async function passkeyUserStanding(db: Executor, userId: number) {
  const user = await findUserStanding(db, userId);
  if (!user || user.disabled_at || user.archived_at) {
    throw new CoreError('unauthenticated', 'This user can no longer sign in; ask an admin of the account');
  }
  return user;
}
