import type { Executor, SignerRow } from '@esign/db';
import { findLiveHostSession, type HostSession, insertHostSession } from '@esign/db/queries/host-sessions';
import { insertSignerAuditEvent } from '@esign/db/queries/signing';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { Config } from '../../config.ts';
import type { Ctx, Scope } from '../../context.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { effectiveStatus } from '../signature-requests/index.ts';
import { signingUrl } from '../signature-requests/invitations.ts';
import { lockRequest, lockSigner, requireSigner } from '../signature-requests/queries.ts';
import { SIGNING_COOKIE_PATH } from './cookie.ts';

// Issue 47, in-person signing (docs/roles.md): a dashboard user hosts a signer of their account on
// their own device. signers.host records a host session and sets an HTTP-only cookie on that
// browser (one per signer, Path=/trpc); the signing page opened with `?hosted=1` works only with
// that cookie, so the hosted page cannot be reopened from another device. The host's confirmation
// replaces the email or SMS code; the audit trail names the host, the device and that the signer
// was present. The session ends when the signer finishes, or after HOSTED_SESSION_MS.

const HOSTED_SESSION_MS = 2 * 3600_000;

const isHttps = (config: Pick<Config, 'PUBLIC_URL'>) => config.PUBLIC_URL.startsWith('https:');

function hostCookieName(config: Pick<Config, 'PUBLIC_URL'>, signerId: number): string {
  return `${isHttps(config) ? '__Secure-' : ''}esign_host_${signerId}`;
}

/** The live host session this browser's cookie opens for the signer, if any. */
export async function hostSessionOf(
  db: Executor,
  o: { config: Config; signerId: number; cookieHeader: string | null | undefined; now: Date },
): Promise<HostSession | undefined> {
  if (!o.cookieHeader) return undefined;
  const value = parseCookie(o.cookieHeader)[hostCookieName(o.config, o.signerId)];
  if (!value || !/^[A-Za-z0-9_-]{20,200}$/.test(value)) return undefined;
  return findLiveHostSession(db, { idHash: sha256Hex(value), signerId: o.signerId, now: o.now });
}

/** Refused with one message whether the cookie is missing, another device's, spent or expired. */
export function hostedElsewhere(): CoreError {
  return new CoreError(
    'forbidden',
    'This in-person signing session belongs to the device it was started on; the host starts a new one from the dashboard',
    { messageKey: 'error.hosted_elsewhere' },
  );
}

/** The audit data of a hosted step: who hosted, on which device, and that the signer was present. */
export function hostedEvidence(host: HostSession, userAgent: string | null): Record<string, unknown> {
  return {
    hosted_by: { name: host.host_name, email: host.host_email },
    device: userAgent ?? host.user_agent ?? 'unknown',
    signer_present: true,
    identity: 'confirmed in person by the host (replaces email or SMS codes)',
  };
}

function assertHostable(signer: SignerRow, status: string): void {
  if (status !== 'sent' && status !== 'in_progress') {
    throw new CoreError('not_open', `Signature request ${signer.signature_request_id} is ${status}`);
  }
  if (signer.status === 'signed' || signer.status === 'declined') {
    throw new CoreError('signer_finished', `Signer ${signer.id} already ${signer.status}`);
  }
  if (signer.status === 'waiting') {
    throw new CoreError(
      'invalid_request',
      `It is not signer ${signer.id}'s turn yet; an earlier participant must finish first`,
    );
  }
  if (!signer.token_nonce) throw new CoreError('invalid_request', `Signer ${signer.id} has no signing link`);
}

/**
 * signers.host: starts hosting a signer of the caller's account on this browser (a signer of
 * another account is 404 not_found, as every resource). Dashboard sessions only: the device is
 * the host's browser.
 */
export async function startHostedSigning(ctx: Ctx, scope: Scope, signerId: number) {
  const { actor, web } = ctx;
  if (actor?.kind !== 'session' || !web?.addSetCookie) {
    throw new CoreError('forbidden', 'Only a signed-in dashboard user can host a signer on their device');
  }
  const now = ctx.now();
  const secret = randomToken(32);
  const expiresAt = new Date(now.getTime() + HOSTED_SESSION_MS);
  const signer = await ctx.db.transaction().execute(async (tx) => {
    // Scoped: a signer of another account is 404 not_found.
    const found = await requireSigner(tx, scope, signerId);
    const request = await lockRequest(tx, scope, found.signature_request_id);
    const row = await lockSigner(tx, scope, signerId);
    assertHostable(row, effectiveStatus(request, now));
    await insertHostSession(tx, {
      idHash: sha256Hex(secret),
      signerId,
      hostUserId: actor.userId,
      userAgent: ctx.userAgent,
      now,
      expiresAt,
    });
    await insertSignerAuditEvent(tx, {
      request,
      signerId,
      type: 'signer.hosting_started',
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      data: {
        hosted_by: { name: actor.userName, email: actor.userEmail },
        device: ctx.userAgent ?? 'unknown',
      },
      now,
    });
    return row;
  });
  web.addSetCookie(
    stringifySetCookie({
      name: hostCookieName(ctx.config, signerId),
      value: secret,
      path: SIGNING_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: isHttps(ctx.config),
      expires: expiresAt,
    }),
  );
  return {
    object: 'hosted_session' as const,
    signer_id: signerId,
    signature_request_id: signer.signature_request_id,
    signing_url: `${signingUrl(ctx.config, signer.token_nonce!)}?hosted=1`,
    expires_at: expiresAt.toISOString(),
  };
}
