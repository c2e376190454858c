import { randomBytes } from 'node:crypto';
import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import { markSignerEmailed } from '@esign/db/queries/signers';
import type { Config } from '../../config.ts';
import { sha256Hex } from '../../crypto.ts';
import { brandedInvitationEmail, brandIdentity, requestBrand } from '../brands/branded-mail.ts';
import { invitationEmail } from '../emails.ts';
import { readerLocale } from '../locale.ts';
import { queueMail } from '../mail.ts';
import type { RequestSnapshot } from '../request-model.ts';
import { hmac } from '../secret.ts';
import type { ServiceContext } from '../service-context.ts';
import {
  gsm7Name,
  type Outgoing,
  queueInvitationSms,
  sendOutgoingNow,
  signerChannels,
} from '../sms/index.ts';

// Signing links and the emails and SMS that carry them.

/** Signing tokens are derived from a stored nonce with the server secret; only their hash is searchable. */
function signingToken(config: Config, nonce: string): string {
  return hmac(config, 'signing-token', nonce).toString('base64url');
}

export function signingUrl(config: Config, nonce: string): string {
  return `${config.PUBLIC_URL}/s/${signingToken(config, nonce)}`;
}

export function newSignerToken(config: Config): { token_nonce: string; token_hash: string } {
  const nonce = randomBytes(24).toString('base64url');
  return { token_nonce: nonce, token_hash: sha256Hex(signingToken(config, nonce)) };
}

/**
 * Queues the signer's link in the transaction of its cause, by email, SMS or both (their channels,
 * sms/delivery.ts); returns what was queued.
 */
export async function queueInvitation(
  tx: Tx,
  config: Config,
  {
    request,
    signer,
    kind,
    senderName,
    now,
    handedOver,
  }: {
    request: SignatureRequestRow;
    signer: SignerRow;
    kind: InvitationKind;
    senderName: string;
    now: Date;
    handedOver?: HandedOver;
  },
): Promise<Outgoing> {
  await markSignerEmailed(tx, signer.id, now);
  return queueInvitationMail(tx, { config, request, signer, kind, senderName, now, handedOver });
}

type InvitationKind = 'invitation' | 'next_signer' | 'reminder' | 'resend';

/** A hand-over's invitation: who passed the turn on (as the new person knows them), and why. */
type HandedOver = { from: string; reason: string };

/**
 * The email of {@link queueInvitation} alone, for a signer written with `last_emailed_at` already
 * set (a new request's signers): one statement fewer per invitation.
 */
export async function queueInvitationMail(
  tx: Tx,
  o: {
    config: Config;
    request: SignatureRequestRow;
    signer: SignerRow;
    kind: InvitationKind;
    senderName: string;
    now: Date;
    /** The account's default signer language when the caller read it already (undefined: read it). */
    accountLocale?: string | null;
    handedOver?: HandedOver | undefined;
  },
): Promise<Outgoing> {
  const { request, signer } = o;
  const url = signingUrl(o.config, signer.token_nonce!);
  // One language for both channels: the signer's, else the request's, else the account's.
  const { locale } = await readerLocale(tx, {
    signer,
    request,
    ...(o.accountLocale !== undefined ? { account: o.accountLocale } : {}),
  });
  // Issue 44: the request's brand (its choice, its template's, the default) words and dresses
  // both; an SMS names the brand as its sender, in GSM-7 where its name allows (segments.ts).
  const brand = await requestBrand(tx, request);
  const sms = await queueInvitationSms(tx, {
    ...o,
    url,
    locale,
    senderName: brand ? gsm7Name(brand.name) : o.senderName,
  });
  if (!signerChannels(signer).email) return { mail: [], sms };
  const snapshot = request.snapshot as RequestSnapshot;
  const identity = brandIdentity(brand, {
    allowFromAddress: o.config.ALLOW_BRAND_FROM_ADDRESS,
    requestReplyTo: request.reply_to,
  });
  const compose = (opts: Parameters<typeof invitationEmail>[0]) =>
    brand ? brandedInvitationEmail({ ...opts, brand, signerEmail: signer.email }) : invitationEmail(opts);
  const mail = compose({
    locale,
    kind: o.kind,
    title: snapshot.template.name,
    signerName: signer.name,
    senderName: o.senderName,
    signingUrl: url,
    message: request.message,
    expiresAt: request.expires_at,
    handedOver: o.handedOver ?? null,
    part: signer.kind === 'signer' ? null : signer.kind,
  });
  const mailId = await queueMail(tx, {
    kind: o.kind,
    to: signer.email!,
    ...identity,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    accountId: request.account_id,
    environment: request.environment,
    signerId: signer.id,
  });
  return { mail: [mailId], sms };
}

/**
 * After the commit that queued them: the emails and SMS go out now, within a short bound (a
 * `ready` signer becomes `sent`); the worker delivers whatever is left. Every caller of the service
 * gets this, not only the API.
 */
export async function sendQueuedMail(sc: ServiceContext, out: Outgoing): Promise<void> {
  await sendOutgoingNow(sc, out);
}
