import { randomBytes } from 'node:crypto';
import { type Db, type Executor, json, type SignatureRequestRow, type SignerRow, type Tx } from '@esign/db';
import { effectiveValues, isEmail, OPEN_REQUEST_STATUSES, REQUEST_STATUSES } from '@esign/domain';
import { guardedFetch } from '@esign/webhooks';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { Actor, CoreDeps, Scope, Source } from '../context.ts';
import { sha256Hex } from '../crypto.ts';
import { CoreError, notFound } from '../errors.ts';
import type {
  CreateSignatureRequestInput,
  SignatureRequestDto,
  SignerDto,
} from '../routers/signature-requests.schemas.ts';
import { getCredits } from './credits.ts';
import { invitationEmail } from './emails.ts';
import { recordEvent, registerEventDataBuilder } from './events.ts';
import { isImageField, normaliseValues } from './field-values.ts';
import { signFileLink } from './file-links.ts';
import { queueMail } from './mail.ts';
import type { FieldValue, ProducedFiles, RequestSnapshot, SnapshotField } from './request-model.ts';
import { hmac } from './secret.ts';
import { loadTemplateFields, requireTemplate } from './templates.ts';

export const OPEN_STATUSES = OPEN_REQUEST_STATUSES;
export const REMIND_INTERVAL_MS = 3600_000;
export const RESEND_INTERVAL_MS = 10 * 60_000;

// ---------------------------------------------------------------- signing links

/** Signing tokens are derived from a stored nonce with the server secret; only their hash is searchable. */
export function signingToken(config: Config, nonce: string): string {
  return hmac(config, 'signing-token', nonce).toString('base64url');
}

export function signingUrl(config: Config, nonce: string): string {
  return `${config.PUBLIC_URL}/s/${signingToken(config, nonce)}`;
}

function newSignerToken(config: Config): { token_nonce: string; token_hash: string } {
  const nonce = randomBytes(24).toString('base64url');
  return { token_nonce: nonce, token_hash: sha256Hex(signingToken(config, nonce)) };
}

// ---------------------------------------------------------------- reads

export function isPastExpiry(row: Pick<SignatureRequestRow, 'status' | 'expires_at'>, now: Date): boolean {
  return (row.status === 'sent' || row.status === 'in_progress') && !!row.expires_at && row.expires_at <= now;
}

/** The status as clients must see it: no request is ever shown open after its time. */
export function effectiveStatus(
  row: Pick<SignatureRequestRow, 'status' | 'expires_at'>,
  now: Date,
): SignatureRequestRow['status'] {
  return isPastExpiry(row, now) ? 'expired' : row.status;
}

export async function requireRequest(db: Executor, scope: Scope, id: number): Promise<SignatureRequestRow> {
  const row = await db
    .selectFrom('signature_requests')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
  if (!row) throw notFound('Signature request', id);
  return row;
}

export async function lockRequest(tx: Tx, id: number): Promise<SignatureRequestRow> {
  return tx
    .selectFrom('signature_requests')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export function signerFields(snapshot: RequestSnapshot, role: string | null): SnapshotField[] {
  return snapshot.fields.filter((f) => f.role === role);
}

/** A signer's values, prefilled and entered merged by the one rule of @esign/domain. */
export { effectiveValues };

function fileRefs(config: Config, files: ProducedFiles | null, now: Date) {
  return (files?.files ?? [])
    .filter((f) => f.kind === 'document')
    .map((f) => ({
      name: f.name,
      url: signFileLink(config, { k: f.storage_key, t: 'application/pdf', n: `${f.name}.pdf` }, now),
    }));
}

export interface DtoOptions {
  config: Config;
  now: Date;
  withValues: boolean;
}

async function templateArchived(db: Executor, templateId: number | null): Promise<boolean> {
  if (!templateId) return false;
  const t = await db
    .selectFrom('templates')
    .select('archived_at')
    .where('id', '=', templateId)
    .executeTakeFirst();
  return !!t?.archived_at;
}

export function toSignerDto(
  signer: SignerRow,
  request: SignatureRequestRow,
  o: DtoOptions & { archived: boolean },
): SignerDto {
  const status = effectiveStatus(request, o.now);
  const linkLive =
    !o.archived &&
    (status === 'sent' || status === 'in_progress') &&
    signer.status !== 'signed' &&
    signer.status !== 'declined';
  const snapshot = request.snapshot as RequestSnapshot;
  const dto: SignerDto = {
    object: 'signer',
    id: signer.id,
    signature_request_id: signer.signature_request_id,
    role: signer.role,
    name: signer.name,
    email: signer.email,
    phone: signer.phone,
    external_id: signer.external_id,
    metadata: signer.metadata,
    status: signer.status,
    signing_url: linkLive && signer.token_nonce ? signingUrl(o.config, signer.token_nonce) : null,
    sent_at: signer.sent_at?.toISOString() ?? null,
    viewed_at: signer.viewed_at?.toISOString() ?? null,
    signed_at: signer.signed_at?.toISOString() ?? null,
    declined_at: signer.declined_at?.toISOString() ?? null,
    ...(signer.status === 'declined' ? { decline_reason: signer.decline_reason } : {}),
    created_at: signer.created_at.toISOString(),
    updated_at: signer.updated_at.toISOString(),
  };
  if (o.withValues) {
    const values = effectiveValues(signer);
    dto.values = signerFields(snapshot, signer.role)
      .filter((f) => values[f.name] !== undefined && values[f.name] !== null)
      .map((f) => ({ field: f.name, value: values[f.name] as NonNullable<FieldValue> }));
    if (signer.status === 'signed')
      dto.documents = fileRefs(o.config, signer.documents as ProducedFiles | null, o.now);
  }
  return dto;
}

/** The one mapper from rows to the spec's Signature request object. */
export async function toSignatureRequestDto(
  db: Executor,
  row: SignatureRequestRow,
  o: DtoOptions,
): Promise<SignatureRequestDto> {
  const [signers, creator, archived] = await Promise.all([
    db
      .selectFrom('signers')
      .selectAll()
      .where('signature_request_id', '=', row.id)
      .orderBy('position')
      .execute(),
    row.created_by_user_id
      ? db
          .selectFrom('users')
          .select(['id', 'email', 'name'])
          .where('id', '=', row.created_by_user_id)
          .executeTakeFirst()
      : undefined,
    templateArchived(db, row.template_id),
  ]);
  const status = effectiveStatus(row, o.now);
  const snapshot = row.snapshot as RequestSnapshot;
  const dto: SignatureRequestDto = {
    object: 'signature_request',
    id: row.id,
    status,
    template: row.template_id ? { id: row.template_id, name: snapshot.template.name } : null,
    signing_order: row.signing_order,
    source: row.source,
    created_by: creator ? { id: creator.id, email: creator.email, name: creator.name } : null,
    signers: signers.map((s) => toSignerDto(s, row, { ...o, archived })),
    expires_at: row.expires_at?.toISOString() ?? null,
    completed_at: row.completed_at?.toISOString() ?? null,
    canceled_at: row.canceled_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  if (status === 'completed' && o.withValues) {
    const files = row.documents as ProducedFiles | null;
    const sealed = row.sealing_status === 'done' && files;
    dto.documents = sealed ? fileRefs(o.config, files, o.now) : null;
    dto.audit_trail_url =
      sealed && row.audit_trail_storage_key
        ? signFileLink(
            o.config,
            { k: row.audit_trail_storage_key, t: 'application/pdf', n: `audit-trail-${row.id}.pdf` },
            o.now,
          )
        : null;
    dto.combined_document_url =
      sealed && row.combined_storage_key
        ? signFileLink(
            o.config,
            { k: row.combined_storage_key, t: 'application/pdf', n: `signed-${row.id}.pdf` },
            o.now,
          )
        : null;
  }
  return dto;
}

registerEventDataBuilder('signature_request', async (db: Db, scope, id, ctx) =>
  toSignatureRequestDto(db, await requireRequest(db, scope, id), { ...ctx, withValues: true }),
);

// ---------------------------------------------------------------- create

function parseExpiry(value: string | undefined, now: Date): Date | null {
  if (value === undefined) return null;
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(d.getTime())) {
    throw new CoreError(
      'invalid_parameter',
      'expires_at must be an ISO 8601 date-time such as 2030-01-31T12:00:00Z',
    );
  }
  if (d <= now) throw new CoreError('invalid_parameter', 'expires_at must be in the future');
  return d;
}

function objectParam(value: unknown, name: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CoreError('invalid_parameter', `${name} must be an object`);
  return value as Record<string, unknown>;
}

/** Image prefills given as https URLs are fetched once, through the outbound guard, into data: URIs. */
async function inlineImageUrls(
  fields: SnapshotField[],
  values: Record<string, FieldValue>,
  deps: CoreDeps,
  label: string,
) {
  for (const f of fields) {
    const v = values[f.name];
    if (!isImageField(f.type) || typeof v !== 'string' || !v.startsWith('https://')) continue;
    let bytes: Uint8Array;
    try {
      const res = await guardedFetch(v, {
        timeoutMs: 15_000,
        maxBytes: 3 * 1024 * 1024,
        allowedProtocols: ['https:'],
        requireOk: true,
        allowPrivate: deps.outbound?.allowPrivate ?? false,
        ca: deps.outbound?.ca,
        lookup: deps.outbound?.lookup,
      });
      bytes = res.body;
    } catch (err) {
      throw new CoreError(
        'invalid_request',
        `${label}.${f.name}: the image URL could not be downloaded (${(err as Error).message})`,
      );
    }
    // The same check as every other image value (field-values.ts → images.ts).
    const fetched = { [f.name]: Buffer.from(bytes).toString('base64') };
    values[f.name] = normaliseValues([f], fetched, label)[f.name] ?? null;
  }
}

/** POST /signature_requests: every rule of the spec, one transaction for the request, signers, mail and events. */
export async function createSignatureRequest(
  db: Db,
  actor: Actor,
  input: CreateSignatureRequestInput,
  opts: { deps: CoreDeps; config: Config; source: Source; now: Date },
): Promise<SignatureRequestRow> {
  const scope = { accountId: actor.accountId, environment: actor.environment };
  const now = opts.now;
  const expiresAt = parseExpiry(input.expires_at, now);
  const template = await requireTemplate(db, scope, input.template_id);
  if (template.archived_at)
    throw new CoreError('template_archived', `Template ${template.id} is archived and cannot be sent`);
  const templateFields = await loadTemplateFields(db, template.id);
  if (templateFields.length === 0) {
    throw new CoreError(
      'template_has_no_fields',
      `Template ${template.id} has no fields yet; add fields (text tags, PATCH fields, or the editor) first`,
    );
  }
  const signersIn = input.signers ?? [];
  if (signersIn.length === 0) throw new CoreError('missing_signers', 'signers must list at least one signer');
  const roles = template.roles;
  if (signersIn.length > roles.length) {
    throw new CoreError(
      'invalid_signer',
      `The template has ${roles.length} role(s) (${roles.join(', ')}) but ${signersIn.length} signers were given`,
    );
  }
  const taken = new Set<string>();
  for (const [i, s] of signersIn.entries()) {
    if (!s.email && !s.phone)
      throw new CoreError('invalid_signer', `signers[${i}] needs an email or a phone`);
    if (s.role !== undefined) {
      if (!roles.includes(s.role))
        throw new CoreError(
          'invalid_signer',
          `signers[${i}].role "${s.role}" is not a role of the template (${roles.join(', ')})`,
        );
      if (taken.has(s.role))
        throw new CoreError('invalid_signer', `signers[${i}].role "${s.role}" is given twice`);
      taken.add(s.role);
    }
  }
  const free = roles.filter((r) => !taken.has(r));
  const assigned = signersIn.map((s) => ({ ...s, role: s.role ?? free.shift()! }));
  // Signers sign in role order.
  assigned.sort((a, b) => roles.indexOf(a.role) - roles.indexOf(b.role));

  const snapshot: RequestSnapshot = {
    template: { id: template.id, name: template.name },
    roles,
    documents: (
      await db
        .selectFrom('template_documents')
        .selectAll()
        .where('template_id', '=', template.id)
        .orderBy('position')
        .execute()
    ).map((d, index) => ({
      index,
      template_document_id: d.id,
      name: d.name,
      storage_key: d.storage_key,
      sha256: d.sha256,
      pages: d.pages,
    })),
    fields: templateFields.map((f) => ({
      id: f.id,
      name: f.name ?? f.id,
      type: f.type as SnapshotField['type'],
      role: f.role,
      required: f.required,
      ...(f.options ? { options: f.options } : {}),
      areas: f.areas,
    })),
  };

  const prepared: ((typeof assigned)[number] & {
    metadata: Record<string, unknown>;
    prefill: Record<string, FieldValue>;
  })[] = [];
  for (const [i, s] of assigned.entries()) {
    const metadata = objectParam(s.metadata, `signers[${i}].metadata`) ?? {};
    const prefillIn = objectParam(s.prefill, `signers[${i}].prefill`);
    const fields = signerFields(snapshot, s.role);
    const prefill = prefillIn ? normaliseValues(fields, prefillIn, `signers[${i}].prefill`) : {};
    await inlineImageUrls(fields, prefill, opts.deps, `signers[${i}].prefill`);
    prepared.push({ ...s, metadata, prefill });
  }

  // Credits: a template uses one credit the first time a request made from it is completed.
  if (actor.environment === 'live') {
    const consumed = await db
      .selectFrom('credit_ledger')
      .select('id')
      .where('account_id', '=', actor.accountId)
      .where('template_id', '=', template.id)
      .where('reason', '=', 'consume')
      .executeTakeFirst();
    if (!consumed) {
      const credits = await getCredits(db, actor.accountId);
      if (!credits.can_send) {
        throw new CoreError(
          'insufficient_credits',
          `Not enough credits to send this template: ${credits.available} available, sending is blocked at ${credits.overdraft_limit}. Buy credits, then retry with the same Idempotency-Key.`,
        );
      }
    }
  }

  const sender = actor.userName ?? actor.userEmail;
  return db.transaction().execute(async (tx) => {
    const request = await tx
      .insertInto('signature_requests')
      .values({
        account_id: actor.accountId,
        environment: actor.environment,
        template_id: template.id,
        template_name: template.name,
        status: 'sent',
        signing_order: input.signing_order,
        source: opts.source,
        created_by_user_id: actor.userId,
        api_key_id: actor.apiKeyId,
        oauth_client_id: actor.oauthClientId,
        send_email: input.send_email,
        message: input.message ? json(input.message) : null,
        reply_to: input.reply_to ?? null,
        redirect_url: input.redirect_url ?? null,
        require_email_otp: input.require_email_otp,
        snapshot: json(snapshot),
        expires_at: expiresAt,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    for (const [position, s] of prepared.entries()) {
      const theirTurn = input.signing_order === 'parallel' || position === 0;
      const token = newSignerToken(opts.config);
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
          ...token,
          redirect_url: s.redirect_url ?? null,
          require_email_otp: s.require_email_otp ?? input.require_email_otp,
          invited_at: theirTurn ? now : null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (theirTurn && input.send_email && signer.email) {
        await queueInvitation(tx, opts.config, request, signer, 'invitation', sender, now);
      }
    }
    await tx
      .insertInto('audit_events')
      .values({
        account_id: actor.accountId,
        environment: actor.environment,
        signature_request_id: request.id,
        type: 'request.sent',
        actor_type: actor.kind,
        actor_id: String(actor.userId),
        api_key_id: actor.apiKeyId,
        data: json({ source: opts.source, signers: prepared.length, signing_order: input.signing_order }),
        created_at: now,
      })
      .execute();
    await recordEvent(tx, scope, {
      type: 'signature_request.created',
      objectType: 'signature_request',
      objectId: request.id,
      now,
    });
    return request;
  });
}

export async function queueInvitation(
  tx: Tx,
  config: Config,
  request: SignatureRequestRow,
  signer: SignerRow,
  kind: 'invitation' | 'next_signer' | 'reminder' | 'resend',
  senderName: string,
  now: Date,
): Promise<number> {
  const snapshot = request.snapshot as RequestSnapshot;
  const mail = invitationEmail({
    kind,
    title: snapshot.template.name,
    signerName: signer.name,
    senderName,
    signingUrl: signingUrl(config, signer.token_nonce!),
    message: request.message,
    expiresAt: request.expires_at,
  });
  await tx.updateTable('signers').set({ last_emailed_at: now }).where('id', '=', signer.id).execute();
  return queueMail(tx, {
    kind,
    to: signer.email!,
    replyTo: request.reply_to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    accountId: request.account_id,
    environment: request.environment,
    signerId: signer.id,
  });
}

export async function senderNameOf(db: Executor, request: SignatureRequestRow): Promise<string> {
  if (!request.created_by_user_id) return 'The sender';
  const u = await db
    .selectFrom('users')
    .select(['name', 'email'])
    .where('id', '=', request.created_by_user_id)
    .executeTakeFirst();
  return u?.name ?? u?.email ?? 'The sender';
}

// ---------------------------------------------------------------- list

export async function listSignatureRequests(
  db: Executor,
  scope: Scope,
  q: { limit: number; cursor?: number; template_id?: number; q?: string; status?: string },
  now: Date,
) {
  // spec: `open` and `expired` are computed filters; the other values are the request statuses.
  const allowed: readonly string[] = ['open', ...REQUEST_STATUSES];
  if (q.status !== undefined && !allowed.includes(q.status)) {
    throw new CoreError('invalid_parameter', `status must be one of ${allowed.join(', ')}`);
  }
  let query = db
    .selectFrom('signature_requests')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('id', 'desc')
    .limit(q.limit + 1);
  if (q.cursor) query = query.where('id', '<', q.cursor);
  if (q.template_id) query = query.where('template_id', '=', q.template_id);
  const notExpired = (eb: any) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]);
  if (q.status === 'open') query = query.where('status', 'in', ['sent', 'in_progress']).where(notExpired);
  else if (q.status === 'sent' || q.status === 'in_progress')
    query = query.where('status', '=', q.status).where(notExpired);
  else if (q.status === 'expired') {
    query = query.where((eb) =>
      eb.or([
        eb('status', '=', 'expired'),
        eb.and([eb('status', 'in', ['sent', 'in_progress']), eb('expires_at', '<=', now)]),
      ]),
    );
  } else if (q.status) query = query.where('status', '=', q.status as SignatureRequestRow['status']);
  if (q.q) {
    const like = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('signers')
          .select(sql`1`.as('one'))
          .whereRef('signers.signature_request_id', '=', 'signature_requests.id')
          .where((s) =>
            s.or([
              s('signers.name', 'ilike', like),
              s('signers.email', 'ilike', like),
              s('signers.phone', 'ilike', like),
            ]),
          ),
      ),
    );
  }
  const rows = await query.execute();
  const page = rows.slice(0, q.limit);
  return {
    rows: page,
    hasMore: rows.length > q.limit,
    nextCursor: rows.length > q.limit ? page.at(-1)!.id : null,
  };
}

// ---------------------------------------------------------------- cancel, remind, expire

function assertOpenForChange(row: SignatureRequestRow, now: Date, what: string) {
  const status = effectiveStatus(row, now);
  if (status === 'completed')
    throw new CoreError('already_completed', `Signature request ${row.id} is already completed`);
  if (status === 'canceled' || status === 'declined' || status === 'expired') {
    throw new CoreError('not_open', `Signature request ${row.id} is ${status}; ${what}`);
  }
}

export async function cancelSignatureRequest(
  tx: Tx,
  actor: Actor,
  id: number,
  now: Date,
): Promise<SignatureRequestRow> {
  const scope = { accountId: actor.accountId, environment: actor.environment };
  await requireRequest(tx, scope, id);
  const row = await lockRequest(tx, id);
  if (row.status === 'canceled') return row;
  assertOpenForChange(row, now, 'it cannot be canceled');
  const canceled = await tx
    .updateTable('signature_requests')
    .set({ status: 'canceled', canceled_at: now, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('audit_events')
    .values({
      account_id: row.account_id,
      environment: row.environment,
      signature_request_id: id,
      type: 'request.canceled',
      actor_type: actor.kind,
      actor_id: String(actor.userId),
      api_key_id: actor.apiKeyId,
      created_at: now,
    })
    .execute();
  await recordEvent(tx, scope, {
    type: 'signature_request.canceled',
    objectType: 'signature_request',
    objectId: id,
    now,
  });
  return canceled;
}

export async function remindSigners(tx: Tx, actor: Actor, id: number, config: Config, now: Date) {
  const scope = { accountId: actor.accountId, environment: actor.environment };
  await requireRequest(tx, scope, id);
  const row = await lockRequest(tx, id);
  assertOpenForChange(row, now, 'its signers cannot be reminded');
  if (row.last_reminded_at && now.getTime() - row.last_reminded_at.getTime() < REMIND_INTERVAL_MS) {
    const retry = Math.ceil((row.last_reminded_at.getTime() + REMIND_INTERVAL_MS - now.getTime()) / 1000);
    throw new CoreError(
      'remind_too_soon',
      `Signers of this request were reminded less than an hour ago; retry in ${retry} s`,
      {
        retryAfterSeconds: retry,
      },
    );
  }
  const signers = await tx
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', '=', id)
    .where('status', 'in', ['ready', 'sent', 'viewed'])
    .where('email', 'is not', null)
    .orderBy('position')
    .execute();
  if (signers.length === 0)
    throw new CoreError('nothing_to_remind', 'No signer is currently waiting to sign with an email address');
  const sender = await senderNameOf(tx, row);
  for (const s of signers) {
    await queueInvitation(tx, config, row, s, 'reminder', sender, now);
  }
  await tx
    .updateTable('signature_requests')
    .set({ last_reminded_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
  await tx
    .insertInto('audit_events')
    .values({
      account_id: row.account_id,
      environment: row.environment,
      signature_request_id: id,
      type: 'request.reminded',
      actor_type: actor.kind,
      actor_id: String(actor.userId),
      api_key_id: actor.apiKeyId,
      data: json({ signer_ids: signers.map((s) => s.id) }),
      created_at: now,
    })
    .execute();
  return {
    object: 'reminder' as const,
    signature_request_id: id,
    reminded_signer_ids: signers.map((s) => s.id),
  };
}

/** The worker's sweep: unfinished requests past expires_at become `expired`. */
export async function expireOverdueRequests(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .updateTable('signature_requests')
    .set({ status: 'expired', expired_at: now, updated_at: now })
    .where('status', 'in', ['sent', 'in_progress'])
    .where('expires_at', '<=', now)
    .returning('id')
    .execute();
  return rows.length;
}

// ---------------------------------------------------------------- signers

export async function requireSigner(db: Executor, scope: Scope, id: number): Promise<SignerRow> {
  const row = await db
    .selectFrom('signers')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
  if (!row) throw notFound('Signer', id);
  return row;
}

export async function signerDto(
  db: Executor,
  signer: SignerRow,
  config: Config,
  now: Date,
): Promise<SignerDto> {
  const request = await db
    .selectFrom('signature_requests')
    .selectAll()
    .where('id', '=', signer.signature_request_id)
    .executeTakeFirstOrThrow();
  return toSignerDto(signer, request, {
    config,
    now,
    withValues: true,
    archived: await templateArchived(db, request.template_id),
  });
}

registerEventDataBuilder('signer', async (db: Db, scope, id, ctx) =>
  signerDto(db, await requireSigner(db, scope, id), ctx.config, ctx.now),
);

export interface UpdateSignerArgs {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  external_id?: string | null;
  metadata?: unknown;
  prefill?: unknown;
  resend: boolean;
}

/** PATCH /signers/{id}. */
export async function updateSigner(
  tx: Tx,
  actor: Actor,
  id: number,
  input: UpdateSignerArgs,
  config: Config,
  now: Date,
): Promise<SignerRow> {
  const scope = { accountId: actor.accountId, environment: actor.environment };
  const found = await requireSigner(tx, scope, id);
  const request = await lockRequest(tx, found.signature_request_id);
  const signer = await tx
    .selectFrom('signers')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (signer.status === 'signed' || signer.status === 'declined') {
    throw new CoreError('signer_finished', `Signer ${id} has ${signer.status} and cannot be changed`);
  }
  const status = effectiveStatus(request, now);
  if (status === 'canceled' || status === 'declined' || status === 'expired') {
    throw new CoreError(
      'not_open',
      `Signature request ${request.id} is ${status}; its signers cannot be changed`,
    );
  }
  if (input.email !== undefined && input.email !== null && !isEmail(input.email)) {
    throw new CoreError('invalid_parameter', `Invalid signer email "${input.email}"`);
  }
  if (input.phone !== undefined && input.phone !== null && !/^\+?[0-9 ()./-]{5,30}$/.test(input.phone)) {
    throw new CoreError('invalid_parameter', `Invalid phone "${input.phone}": use international format`);
  }
  const email = input.email !== undefined ? input.email : signer.email;
  const phone = input.phone !== undefined ? input.phone : signer.phone;
  if (!email && !phone) throw new CoreError('invalid_parameter', 'A signer must keep an email or a phone');
  const metadata = objectParam(input.metadata, 'metadata');
  const snapshot = request.snapshot as RequestSnapshot;
  const prefillIn = objectParam(input.prefill, 'prefill');
  const prefill = prefillIn
    ? {
        ...(signer.prefill as object),
        ...normaliseValues(signerFields(snapshot, signer.role), prefillIn, 'prefill'),
      }
    : undefined;
  if (input.resend) {
    const invited = signer.sent_at !== null || signer.invited_at !== null;
    if (!invited || signer.status === 'waiting') {
      throw new CoreError('invalid_request', `Signer ${id} has not been invited yet; it is not their turn`);
    }
    if (!email) throw new CoreError('invalid_request', `Signer ${id} has no email address to resend to`);
    if (signer.last_emailed_at && now.getTime() - signer.last_emailed_at.getTime() < RESEND_INTERVAL_MS) {
      const retry = Math.ceil((signer.last_emailed_at.getTime() + RESEND_INTERVAL_MS - now.getTime()) / 1000);
      throw new CoreError(
        'remind_too_soon',
        `Signer ${id} was emailed less than 10 minutes ago; retry in ${retry} s`,
        { retryAfterSeconds: retry },
      );
    }
  }
  const updated = await tx
    .updateTable('signers')
    .set({
      updated_at: now,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.phone !== undefined ? { phone: input.phone } : {}),
      ...(input.external_id !== undefined ? { external_id: input.external_id } : {}),
      ...(metadata !== undefined ? { metadata: json(metadata) } : {}),
      ...(prefill !== undefined ? { prefill: json(prefill) } : {}),
      ...(input.resend ? { last_emailed_at: now } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (input.resend)
    await queueInvitation(tx, config, request, updated, 'resend', await senderNameOf(tx, request), now);
  return updated;
}
