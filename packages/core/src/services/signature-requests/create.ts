import { json, type SignatureRequestRow, type SignerRow, type Tx } from '@esign/db';
import type { CreditsRow } from '@esign/db/queries/credits';
import type { RecipientDefaults } from '@esign/db/queries/recipients';
import {
  type CreatedByRow,
  findSendSource,
  insertSignatureRequests,
  type SendSourceRow,
  type SignatureRequestInsert,
  shareSendSource,
} from '@esign/db/queries/signature-requests';
import { insertSigners as insertSignerRows, type SignerInsert } from '@esign/db/queries/signers';
import type { Config } from '../../config.ts';
import { type Actor, type Scope, type Source, scopeOf } from '../../context.ts';
import type { CreateSignatureRequestInput, SignatureRequestDto } from '../../contracts/signature-requests.ts';
import { CoreError, notFound } from '../../errors.ts';
import { readAfterCommit } from '../after-commit.ts';
import { requireBrandChoice } from '../brands/brands.ts';
import { creditsDecision, readCredits } from '../credits.ts';
import { recordEvent } from '../events.ts';
import { commitIdempotentOutcome, type IdempotencyClaim } from '../idempotency.ts';
import type { ServiceContext } from '../service-context.ts';
import { scheduleAutoReminders } from './auto-reminders.ts';
import { type RequestRecipients, recipientRefs, writeRecipients } from './cc.ts';
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

/** What every request written in one transaction shares: who sends, from where, when. */
export interface SendBatch {
  actor: Actor;
  scope: Scope;
  source: Source;
  config: Config;
  now: Date;
  /**
   * The account's default `cc` and `notify` addresses (issue 34), read with the template
   * (SendSourceRow.recipient_defaults); left out, writeRecipients reads them itself.
   */
  recipientDefaults?: RecipientDefaults | null;
  /** The account's default signer language, read with the template (issue 32); left out, read when needed. */
  accountLocale?: string | null;
  /** The account's default automatic reminders, read with the template (issue 34.2); set before writing. */
  accountReminders?: SendSourceRow['account_reminders'];
}

/** A batch as written: the account's default reminders read (a request that names none gets them). */
type WriteBatch = SendBatch & { accountReminders: SendSourceRow['account_reminders'] };

/** One request checked against its template, ready to be written. */
export interface PlannedRequest {
  input: CreateSignatureRequestInput;
  expiresAt: Date | null;
  plan: RequestPlan;
}

/** A request as written: its row, its signers in signing order, the invitations queued (email, SMS). */
export interface WrittenRequest {
  request: SignatureRequestRow;
  signers: SignerRow[];
  mailIds: number[];
  smsIds: number[];
  /** Its `cc` and `notify` addresses, the account's defaults included (issue 34, cc.ts). */
  recipients?: RequestRecipients;
}

/**
 * Runs inside the creation's transaction, after the request and its signers are written and
 * before the commit: how the link source ties its own rows (a visit) to the request, so both
 * commit together or not at all. Throwing rolls everything back.
 */
type CreationHook = (tx: Tx, request: SignatureRequestRow, signers: SignerRow[]) => Promise<void>;

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

/** The `reminders` column: the sender's schedule, null for none (given as null, or no account default). */
const remindersValue = (schedule: SendSourceRow['account_reminders']) => (schedule ? json(schedule) : null);

function requestValues(b: WriteBatch, item: PlannedRequest): SignatureRequestInsert {
  const { actor } = b;
  const { input, plan } = item;
  return {
    account_id: actor.accountId,
    environment: actor.environment,
    template_id: plan.snapshot.template.id,
    template_name: plan.snapshot.template.name,
    status: 'sent',
    signing_order: input.signing_order,
    source: b.source,
    created_by_user_id: actor.userId,
    api_key_id: actor.apiKeyId,
    oauth_client_id: actor.oauthClientId,
    send_email: input.send_email,
    message: input.message ? json(input.message) : null,
    reply_to: input.reply_to ?? null,
    redirect_url: input.redirect_url ?? null,
    require_email_otp: input.require_email_otp,
    locale: input.locale ?? null,
    snapshot: json(plan.snapshot),
    expires_at: item.expiresAt,
    created_at: b.now,
    updated_at: b.now,
    reminders: remindersValue(input.reminders === undefined ? b.accountReminders : input.reminders),
    allow_delegation: input.allow_delegation ?? false,
    brand_id: input.brand_id ?? null,
  };
}

/** Whether the signer at `position` is invited (by email or SMS, at `contact`) as the request is sent. */
function invitedNow(input: CreateSignatureRequestInput, position: number, contact: string | null): boolean {
  const theirTurn = input.signing_order === 'parallel' || position === 0;
  return theirTurn && input.send_email && !!contact;
}

/** A request's signers in role order; those whose turn it is are `ready` (and, with send_email, emailed now). */
function signerValues(b: SendBatch, item: PlannedRequest, requestId: number): SignerInsert[] {
  const { actor, now } = b;
  const { input } = item;
  return item.plan.signers.map((s, position) => {
    const theirTurn = input.signing_order === 'parallel' || position === 0;
    return {
      signature_request_id: requestId,
      account_id: actor.accountId,
      environment: actor.environment,
      position,
      kind: s.kind ?? 'signer',
      role: s.role,
      name: s.name ?? null,
      email: s.email ?? null,
      phone: s.phone ?? null,
      external_id: s.external_id ?? null,
      metadata: json(s.metadata),
      prefill: json(s.prefill),
      status: theirTurn ? 'ready' : 'waiting',
      ...newSignerToken(b.config),
      redirect_url: s.redirect_url ?? null,
      require_email_otp: s.require_email_otp ?? input.require_email_otp,
      locale: s.locale ?? null,
      invited_at: theirTurn ? now : null,
      last_emailed_at: invitedNow(input, position, s.email ?? s.phone ?? null) ? now : null,
      delivery: s.delivery ?? input.delivery ?? null,
      created_at: now,
      updated_at: now,
    };
  });
}

/**
 * Writes checked requests in the caller's transaction: every request in one statement, every
 * signer in one (per 65,535 parameters), the invitation emails of the signers whose turn it is,
 * then each request's audit entry and event. In the order given.
 */
export async function writePlannedRequests(
  tx: Tx,
  b: WriteBatch,
  items: PlannedRequest[],
): Promise<WrittenRequest[]> {
  const rows = await insertSignatureRequests(
    tx,
    items.map((item) => requestValues(b, item)),
  );
  // The snapshot just written, not read back: a 5,000-page document's page sizes are 150 kB.
  const requests = rows.map((row, i) => ({ ...row, snapshot: items[i]!.plan.snapshot }));
  const signerRows = await insertSignerRows(
    tx,
    items.flatMap((item, i) => signerValues(b, item, requests[i]!.id)),
  );
  const byRequest = new Map<number, SignerRow[]>(requests.map((r) => [r.id, []]));
  for (const s of signerRows) byRequest.get(s.signature_request_id)!.push(s);
  const senderName = b.actor.userName ?? b.actor.userEmail;
  const written: WrittenRequest[] = [];
  for (const [i, request] of requests.entries()) {
    const signers = byRequest.get(request.id)!.sort((x, y) => x.position - y.position);
    const mailIds: number[] = [];
    const smsIds: number[] = [];
    for (const signer of signers) {
      if (!invitedNow(items[i]!.input, signer.position, signer.email ?? signer.phone)) continue;
      const invitation = { config: b.config, request, signer, kind: 'invitation' as const, senderName };
      const q = await queueInvitationMail(tx, {
        ...invitation,
        now: b.now,
        ...(b.accountLocale !== undefined ? { accountLocale: b.accountLocale } : {}),
      });
      mailIds.push(...q.mail);
      smsIds.push(...q.sms);
    }
    written.push({ request, signers, mailIds, smsIds });
  }
  await writeRecipients(tx, b, { inputs: items.map((item) => item.input), written });
  for (const [i, { request }] of written.entries()) {
    await recordEvent(tx, b.scope, {
      type: 'signature_request.created',
      objectType: 'signature_request',
      objectId: request.id,
      now: b.now,
      audit: {
        type: 'request.sent',
        by: { kind: 'actor', actor: b.actor },
        signatureRequestId: request.id,
        data: {
          source: b.source,
          signers: items[i]!.plan.signers.length,
          signing_order: items[i]!.input.signing_order,
        },
        now: b.now,
      },
    });
  }
  await scheduleAutoReminders(tx, requests, b.now);
  return written;
}

/**
 * The template with its fields, documents and the account's credits, locked FOR SHARE. When the
 * lock waited for an edit that committed meanwhile, the statement's snapshot predates the edit:
 * read again (the lock is held now, nothing can change it any more).
 */
export async function shareTemplate(tx: Tx, actor: Actor, templateId: number): Promise<SendSourceRow> {
  const scope = scopeOf(actor);
  const o = { templateId, userId: actor.userId, withCredits: actor.environment === 'live' };
  let source = await shareSendSource(tx, scope, o);
  if (source?.changed) source = await shareSendSource(tx, scope, o);
  if (!source) throw notFound('Template', templateId);
  return source;
}

interface Written extends WrittenRequest {
  createdBy: CreatedByRow | null;
}

/** The transaction of one send: share-lock and check the template, check credits, write everything. */
async function writeRequest(
  tx: Tx,
  b: SendBatch,
  o: {
    input: CreateSignatureRequestInput;
    expiresAt: Date | null;
    signers: SignerInput[];
    within?: CreationHook;
  },
): Promise<Written> {
  const source = await shareTemplate(tx, b.actor, o.input.template_id);
  // Decided on the template as locked: archived or edited since the slow part, this is what counts.
  const plan = await planRequest(source, o.signers, keepImages);
  assertCreditsRow(b.actor, source.credits);
  // Issue 44: a brand of another account (or none by that id) is a 404, like any other id.
  await requireBrandChoice(tx, b.scope, o.input.brand_id);
  const batch = {
    ...b,
    recipientDefaults: source.recipient_defaults,
    accountLocale: source.account_locale,
    accountReminders: source.account_reminders,
  };
  const [written] = await writePlannedRequests(tx, batch, [{ input: o.input, expiresAt: o.expiresAt, plan }]);
  if (o.within) await o.within(tx, written!.request, written!.signers);
  return { ...written!, createdBy: source.created_by };
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
  { input, ...opts }: CreationOptions & { input: CreateSignatureRequestInput },
): Promise<SignatureRequestDto> {
  const written = await create(sc, actor, input, { ...opts, idempotency: sc.idempotency });
  const signers =
    written.mailIds.length + written.smsIds.length
      ? await readAfterCommit(() => loadSigners(sc.db, written.request.id))
      : written.signers;
  // The template was active under the lock this request was written with.
  const view = {
    ...written.request,
    created_by: written.createdBy,
    template_archived: false,
    recipients: recipientRefs(written.recipients),
  };
  return toSignatureRequestDto(view, signers, { config: sc.config, now: sc.now(), withValues: true });
}

/** {@link createSignatureRequest} without building its answer: the rows written (public links). */
export async function insertSignatureRequest(
  sc: ServiceContext,
  actor: Actor,
  { input, ...opts }: CreationOptions & { input: CreateSignatureRequestInput },
): Promise<WrittenRequest> {
  const { request, signers, mailIds, smsIds, recipients } = await create(sc, actor, input, opts);
  return { request, signers, mailIds, smsIds, recipients };
}

async function create(
  sc: ServiceContext,
  actor: Actor,
  input: CreateSignatureRequestInput,
  opts: CreationOptions & { idempotency?: IdempotencyClaim | null },
): Promise<Written> {
  const now = sc.now();
  const scope = scopeOf(actor);
  const expiresAt = parseExpiry(input.expires_at, now);
  const source = input.embed ? 'embed' : opts.source;
  const b: SendBatch = { actor, scope, source, config: sc.config, now };
  const signers = await withImagesFetched(sc, scope, input);
  const written = await sc.db.transaction().execute(async (tx) => {
    const w = await writeRequest(tx, b, { input, expiresAt, signers, within: opts.within });
    // The Idempotency-Key's outcome commits with the request (issue 41): never sent twice.
    await commitIdempotentOutcome(tx, opts.idempotency, {
      resource: { type: 'signature_request', id: w.request.id },
    });
    return w;
  });
  await sendQueuedMail(sc, { mail: written.mailIds, sms: written.smsIds });
  return written;
}
