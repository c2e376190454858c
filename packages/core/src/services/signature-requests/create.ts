import { json, type SignatureRequestRow, type SignerRow, type Tx } from '@esign/db';
import type { CreditsRow } from '@esign/db/queries/credits';
import {
  type CreatedByRow,
  findSendSource,
  insertSignatureRequests,
  type SendSourceRow,
  shareSendSource,
} from '@esign/db/queries/signature-requests';
import { insertSigners as insertSignerRows, type SignerInsert } from '@esign/db/queries/signers';
import type { Config } from '../../config.ts';
import { type Actor, type Scope, type Source, scopeOf } from '../../context.ts';
import type { CreateSignatureRequestInput, SignatureRequestDto } from '../../contracts/signature-requests.ts';
import { CoreError, notFound } from '../../errors.ts';
import { readAfterCommit } from '../after-commit.ts';
import { recordAudit } from '../audit.ts';
import { creditsDecision, readCredits } from '../credits.ts';
import { recordEvent } from '../events.ts';
import type { ServiceContext } from '../service-context.ts';
import { toSignatureRequestDto } from './dto.ts';
import { newSignerToken, queueInvitationMail, sendQueuedMail } from './invitations.ts';
import { downloadImages, keepImages, parseExpiry, planRequest, type RequestPlan } from './plan.ts';
import { loadSigners } from './queries.ts';

type SignerInput = NonNullable<CreateSignatureRequestInput['signers']>[number];

// POST /signature_requests, as a composition of named steps: the slow work first (downloading image
// prefills, when there are any), then ONE transaction that reads the template with its fields,
// documents and the account's credits in one statement, locked FOR SHARE (any number of sends of
// one template run at once; an edit, which locks it FOR UPDATE, waits for them and they for it),
// checks every rule on it, and writes the request, its signers (one statement), their invitation
// emails, the audit entry and the event; the invitations go out right after the commit, and the
// answer is built from the rows written.
//
// Credits need no lock at send time: a send consumes nothing. A template's credit is consumed when
// its first request completes (signing/complete.ts), once, by the unique index
// credit_ledger_consume_once; a send only checks that the balance is above the overdraft limit
// unless the template's credit is already used, and a lifetime plan never counts.

interface Creation {
  actor: Actor;
  scope: Scope;
  input: CreateSignatureRequestInput;
  expiresAt: Date | null;
  source: Source;
  config: Config;
  now: Date;
  within?: CreationHook;
}

/**
 * Runs inside the creation's transaction, after the request and its signers are written and
 * before the commit: how the link and bulk sources tie their own rows (a visit, a batch row) to
 * the request, so both commit together or not at all. Throwing rolls everything back.
 */
export type CreationHook = (tx: Tx, request: SignatureRequestRow) => Promise<void>;

export interface CreationOptions {
  source: Source;
  within?: CreationHook;
}

/** Credits: a template uses one credit the first time a request made from it is completed. */
export async function assertCanSend(tx: Tx, actor: Actor, templateId: number): Promise<void> {
  if (actor.environment !== 'live') return;
  const { consumed, state } = await readCredits(tx, actor.accountId, templateId);
  assertCredit(consumed, state);
}

/** The same rule on a credits row already read (with the template, in one statement). */
export function assertCreditsRow(actor: Actor, row: CreditsRow | null): void {
  if (actor.environment !== 'live') return;
  if (!row) throw new CoreError('not_found', `Account ${actor.accountId} was not found`);
  const { consumed, state } = creditsDecision(row);
  assertCredit(consumed, state);
}

function assertCredit(consumed: boolean, credits: ReturnType<typeof creditsDecision>['state']): void {
  if (consumed) return;
  if (!credits.can_send) {
    throw new CoreError(
      'insufficient_credits',
      `Not enough credits to send this template: ${credits.available} available, sending is blocked at ${credits.overdraft_limit}. Buy credits, then retry with the same Idempotency-Key.`,
    );
  }
}

async function insertRequest(tx: Tx, c: Creation, plan: RequestPlan): Promise<SignatureRequestRow> {
  const { actor, input, now } = c;
  const [row] = await insertSignatureRequests(tx, [
    {
      account_id: actor.accountId,
      environment: actor.environment,
      template_id: plan.snapshot.template.id,
      template_name: plan.snapshot.template.name,
      status: 'sent',
      signing_order: input.signing_order,
      source: c.source,
      created_by_user_id: actor.userId,
      api_key_id: actor.apiKeyId,
      oauth_client_id: actor.oauthClientId,
      send_email: input.send_email,
      message: input.message ? json(input.message) : null,
      reply_to: input.reply_to ?? null,
      redirect_url: input.redirect_url ?? null,
      require_email_otp: input.require_email_otp,
      snapshot: json(plan.snapshot),
      expires_at: c.expiresAt,
      created_at: now,
      updated_at: now,
    },
  ]);
  // The snapshot just written, not read back: a 5,000-page document's page sizes are 150 kB.
  return { ...row!, snapshot: plan.snapshot };
}

/** Whether the signer at `position` is invited by email as the request is sent. */
function invitedNow(c: Creation, position: number, email: string | null | undefined): boolean {
  const theirTurn = c.input.signing_order === 'parallel' || position === 0;
  return theirTurn && c.input.send_email && !!email;
}

/**
 * The signers in role order, in one statement; those whose turn it is are `ready` and, with
 * send_email, invited (their `last_emailed_at` written with them).
 */
async function insertSigners(
  tx: Tx,
  c: Creation,
  request: SignatureRequestRow,
  plan: RequestPlan,
): Promise<{ signers: SignerRow[]; mailIds: number[] }> {
  const { actor, input, now } = c;
  const rows: SignerInsert[] = plan.signers.map((s, position) => {
    const theirTurn = input.signing_order === 'parallel' || position === 0;
    return {
      signature_request_id: request.id,
      account_id: actor.accountId,
      environment: actor.environment,
      position,
      role: s.role,
      name: s.name ?? null,
      email: s.email ?? null,
      phone: s.phone ?? null,
      external_id: s.external_id ?? null,
      metadata: json(s.metadata),
      prefill: json(s.prefill),
      status: theirTurn ? 'ready' : 'waiting',
      ...newSignerToken(c.config),
      redirect_url: s.redirect_url ?? null,
      require_email_otp: s.require_email_otp ?? input.require_email_otp,
      invited_at: theirTurn ? now : null,
      last_emailed_at: invitedNow(c, position, s.email) ? now : null,
      created_at: now,
      updated_at: now,
    };
  });
  const signers = (await insertSignerRows(tx, rows)).sort((a, b) => a.position - b.position);
  const senderName = actor.userName ?? actor.userEmail;
  const mailIds: number[] = [];
  for (const signer of signers) {
    if (!invitedNow(c, signer.position, signer.email)) continue;
    mailIds.push(
      await queueInvitationMail(tx, { config: c.config, request, signer, kind: 'invitation', senderName }),
    );
  }
  return { signers, mailIds };
}

/**
 * The template with its fields, documents and the account's credits, locked FOR SHARE. When the
 * lock waited for an edit that committed meanwhile, the statement's snapshot predates the edit:
 * read again (the lock is held now, nothing can change it any more).
 */
async function shareTemplate(tx: Tx, c: Creation): Promise<SendSourceRow> {
  const o = { templateId: c.input.template_id, userId: c.actor.userId, withCredits: c.actor.environment === 'live' };
  let source = await shareSendSource(tx, c.scope, o);
  if (source?.changed) source = await shareSendSource(tx, c.scope, o);
  if (!source) throw notFound('Template', c.input.template_id);
  return source;
}

interface Written {
  request: SignatureRequestRow;
  signers: SignerRow[];
  mailIds: number[];
  createdBy: CreatedByRow | null;
}

/** The transaction: share-lock and check the template, check credits, write everything. */
async function writeRequest(tx: Tx, c: Creation, signersIn: SignerInput[]): Promise<Written> {
  const source = await shareTemplate(tx, c);
  // Decided on the template as locked: archived or edited since the slow part, this is what counts.
  const plan = await planRequest(source, signersIn, keepImages);
  assertCreditsRow(c.actor, source.credits);
  const request = await insertRequest(tx, c, plan);
  const { signers, mailIds } = await insertSigners(tx, c, request, plan);
  if (c.within) await c.within(tx, request);
  await recordAudit(tx, c.scope, {
    type: 'request.sent',
    by: { kind: 'actor', actor: c.actor },
    signatureRequestId: request.id,
    data: { source: c.source, signers: plan.signers.length, signing_order: c.input.signing_order },
    now: c.now,
  });
  await recordEvent(tx, c.scope, {
    type: 'signature_request.created',
    objectType: 'signature_request',
    objectId: request.id,
    now: c.now,
  });
  return { request, signers, mailIds, createdBy: source.created_by };
}

/**
 * The signers with their image prefills given as https URLs fetched (through the outbound guard),
 * before the transaction opens: the template is read and every rule checked once for that. Without
 * such a URL nothing needs fetching and the transaction does it all.
 */
async function withImagesFetched(
  sc: ServiceContext,
  scope: Scope,
  input: CreateSignatureRequestInput,
): Promise<SignerInput[]> {
  const signers = input.signers ?? [];
  const hasUrl = (s: SignerInput) =>
    Object.values((s.prefill ?? {}) as Record<string, unknown>).some(
      (v) => typeof v === 'string' && v.startsWith('https://'),
    );
  if (!signers.some(hasUrl)) return signers;
  const source = await findSendSource(sc.db, scope, {
    templateId: input.template_id,
    userId: null,
    withCredits: false,
  });
  if (!source) throw notFound('Template', input.template_id);
  return (await planRequest(source, signers, downloadImages(sc.deps))).signers;
}

/**
 * POST /signature_requests: every rule of the spec; one transaction for the request, signers,
 * mail, audit and event; invitations sent right after the commit. Returns the Signature request,
 * built from the rows written (after invitations went out, its signers are read again: a signer
 * whose email was sent is `sent` now).
 */
export async function createSignatureRequest(
  sc: ServiceContext,
  actor: Actor,
  input: CreateSignatureRequestInput,
  opts: CreationOptions,
): Promise<SignatureRequestDto> {
  const written = await create(sc, actor, input, opts);
  const signers = written.mailIds.length
    ? await readAfterCommit(() => loadSigners(sc.db, written.request.id))
    : written.signers;
  // The template was active under the lock this request was written with.
  const view = { ...written.request, created_by: written.createdBy, template_archived: false };
  return toSignatureRequestDto(view, signers, { config: sc.config, now: sc.now(), withValues: true });
}

/** {@link createSignatureRequest} without building its answer (bulk sends and links). */
export async function insertSignatureRequest(
  sc: ServiceContext,
  actor: Actor,
  input: CreateSignatureRequestInput,
  opts: CreationOptions,
): Promise<SignatureRequestRow> {
  return (await create(sc, actor, input, opts)).request;
}

async function create(
  sc: ServiceContext,
  actor: Actor,
  input: CreateSignatureRequestInput,
  opts: CreationOptions,
): Promise<Written> {
  const now = sc.now();
  const scope = scopeOf(actor);
  const expiresAt = parseExpiry(input.expires_at, now);
  const source = input.embed ? 'embed' : opts.source;
  const c: Creation = { actor, scope, input, expiresAt, source, config: sc.config, now, within: opts.within };
  const signers = await withImagesFetched(sc, scope, input);
  const written = await sc.db.transaction().execute((tx) => writeRequest(tx, c, signers));
  await sendQueuedMail(sc, written.mailIds);
  return written;
}
