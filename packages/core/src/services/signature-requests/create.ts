import { json, type SignatureRequestRow, type Tx } from '@esign/db';
import type { Config } from '../../config.ts';
import { type Actor, type Scope, type Source, scopeOf } from '../../context.ts';
import type { CreateSignatureRequestInput, SignatureRequestDto } from '../../contracts/signature-requests.ts';
import { CoreError } from '../../errors.ts';
import { readAfterCommit } from '../after-commit.ts';
import { recordAudit } from '../audit.ts';
import { readCredits } from '../credits.ts';
import { recordEvent } from '../events.ts';
import type { ServiceContext } from '../service-context.ts';
import {
  loadTemplateDocuments,
  loadTemplateFields,
  lockTemplate,
  requireTemplate,
} from '../templates/queries.ts';
import { newSignerToken, queueInvitation, sendQueuedMail } from './invitations.ts';
import { getSignatureRequest } from './lifecycle.ts';
import { downloadImages, keepImages, parseExpiry, planRequest, type RequestPlan } from './plan.ts';
import { COLUMNS_BUT_SNAPSHOT } from './queries.ts';

type SignerInput = NonNullable<CreateSignatureRequestInput['signers']>[number];

// POST /signature_requests, as a composition of named steps: the slow work first (reading the
// template, checking every rule, downloading image prefills), then ONE transaction that locks the
// template, re-checks it and the credits, and writes the request, its signers, their invitation
// emails, the audit entry and the event; the invitations go out right after the commit.

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
  const { consumed, state: credits } = await readCredits(tx, actor.accountId, templateId);
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
  const row = await tx
    .insertInto('signature_requests')
    .values({
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
    })
    .returning(COLUMNS_BUT_SNAPSHOT)
    .executeTakeFirstOrThrow();
  // The snapshot just written, not read back: a 5,000-page document's page sizes are 150 kB.
  return { ...row, snapshot: plan.snapshot };
}

/** The signers in role order; those whose turn it is are `ready` and, with send_email, invited. */
async function insertSigners(
  tx: Tx,
  c: Creation,
  request: SignatureRequestRow,
  plan: RequestPlan,
): Promise<number[]> {
  const { actor, input, now } = c;
  const sender = actor.userName ?? actor.userEmail;
  const mailIds: number[] = [];
  for (const [position, s] of plan.signers.entries()) {
    const theirTurn = input.signing_order === 'parallel' || position === 0;
    const signer = await tx
      .insertInto('signers')
      .values({
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
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (theirTurn && input.send_email && signer.email) {
      mailIds.push(await queueInvitation(tx, c.config, request, signer, 'invitation', sender, now));
    }
  }
  return mailIds;
}

/** The transaction: lock and (re-)check the template, check credits, write everything. */
async function writeRequest(
  tx: Tx,
  c: Creation,
  signersIn: SignerInput[],
): Promise<{ request: SignatureRequestRow; mailIds: number[] }> {
  const templateId = c.input.template_id;
  const template = await lockTemplate(tx, c.scope, templateId);
  // Decided on the template as locked: archived or edited since the slow part, this is what counts.
  const plan = await planRequest(
    {
      template,
      fields: await loadTemplateFields(tx, templateId),
      documents: await loadTemplateDocuments(tx, templateId),
    },
    signersIn,
    keepImages,
  );
  await assertCanSend(tx, c.actor, templateId);
  const request = await insertRequest(tx, c, plan);
  const mailIds = await insertSigners(tx, c, request, plan);
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
  return { request, mailIds };
}

/**
 * The signers with their image prefills given as https URLs fetched (through the outbound guard),
 * before the transaction opens: the template is read and every rule checked once for that. Without
 * such a URL nothing needs fetching and the transaction does it all (three statements fewer, and a
 * 5,000-page template's documents read once).
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
  const template = await requireTemplate(sc.db, scope, input.template_id);
  const from = {
    template,
    fields: await loadTemplateFields(sc.db, template.id),
    documents: await loadTemplateDocuments(sc.db, template.id),
  };
  return (await planRequest(from, signers, downloadImages(sc.deps))).signers;
}

/**
 * POST /signature_requests: every rule of the spec; one transaction for the request, signers,
 * mail, audit and event; invitations sent right after the commit. Returns the Signature request.
 */
export async function createSignatureRequest(
  sc: ServiceContext,
  actor: Actor,
  input: CreateSignatureRequestInput,
  opts: CreationOptions,
): Promise<SignatureRequestDto> {
  const request = await insertSignatureRequest(sc, actor, input, opts);
  return readAfterCommit(() => getSignatureRequest(sc, scopeOf(actor), request.id));
}

/** {@link createSignatureRequest} without reading the result back (bulk sends write many). */
export async function insertSignatureRequest(
  sc: ServiceContext,
  actor: Actor,
  input: CreateSignatureRequestInput,
  opts: CreationOptions,
): Promise<SignatureRequestRow> {
  const now = sc.now();
  const scope = scopeOf(actor);
  const expiresAt = parseExpiry(input.expires_at, now);
  const source = input.embed ? 'embed' : opts.source;
  const c: Creation = { actor, scope, input, expiresAt, source, config: sc.config, now, within: opts.within };
  const signers = await withImagesFetched(sc, scope, input);
  const { request, mailIds } = await sc.db.transaction().execute((tx) => writeRequest(tx, c, signers));
  await sendQueuedMail(sc, mailIds);
  return request;
}
