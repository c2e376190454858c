import { createHash } from 'node:crypto';
import { type BulkSendRow, type Executor, json, type Tx } from '@esign/db';
import {
  countBulkSendRows,
  findBulkSend,
  findBulkSendIdByKey,
  findBulkSendTemplate,
  insertBulkSend,
  insertBulkSendRows,
  listBulkSendRows as listRows,
  updateBulkSend,
} from '@esign/db/queries/bulk-sends';
import { findSendSource } from '@esign/db/queries/signature-requests';
import { type Actor, type Scope, scopeOf } from '../../context.ts';
import { CoreError, notFound } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import { creditsDecision } from '../credits.ts';
import { commitIdempotentOutcome } from '../idempotency.ts';
import { enqueueJob } from '../jobs.ts';
import type { ServiceContext } from '../service-context.ts';
import { assertCanSend, assertCreditsRow, shareTemplate } from '../signature-requests/create.ts';
import { parseExpiry } from '../signature-requests/plan.ts';
import { type BulkSendDto, toBulkSendDto } from './dto.ts';
import { type BulkMapping, type CheckedRow, checkMapping, checkRows, suggestMapping } from './mapping.ts';
import { decodeFile, readSpreadsheet } from './spreadsheet.ts';

// A bulk send: one template to every row of a CSV or XLSX file (source `bulk`). The upload is
// checked whole, written as one batch with one row per request in one transaction, and sent by the
// worker (process.ts), so the request that uploads it stays fast.

export const BULK_SEND_JOB = 'bulk.send';
const PREVIEW_ROWS = 10;

export interface BulkOptions {
  signing_order: 'sequential' | 'parallel';
  send_email: boolean;
  message?: { subject?: string; body?: string };
  expires_at?: string;
  /** Issue 34: copied and notified on every request of the batch. */
  cc?: string[];
  notify?: string[];
  /** Issue 34.2, 34.3: as on POST /signature_requests (omitted reminders: the account default). */
  reminders?: { every_hours: number; max: number } | null;
  allow_delegation?: boolean;
}

export interface BulkUpload extends BulkOptions {
  template_id: number;
  file: string;
  file_name: string;
  mapping?: BulkMapping;
  key?: string;
}

/** The template with its fields, documents and the account's credits (one statement), the file read and checked. */
async function readUpload(sc: ServiceContext, scope: Scope, input: BulkUpload) {
  const source = await findSendSource(sc.db, scope, {
    templateId: input.template_id,
    userId: null,
    withCredits: true,
  });
  if (!source) throw notFound('Template', input.template_id);
  const { template, fields } = source;
  const sheet = await readSpreadsheet(
    { bytes: decodeFile(input.file), fileName: input.file_name },
    scope.accountId,
  );
  const mapping = input.mapping ?? suggestMapping(sheet.columns, template, fields);
  checkMapping(mapping, sheet.columns, template);
  const rows = await checkRows(sheet, mapping, source);
  return { template, sheet, mapping, rows, credits: source.credits };
}

const rowView = (sheet: { columns: string[]; rows: unknown[][] }, r: CheckedRow) => ({
  row_number: r.row_number,
  values: Object.fromEntries(sheet.columns.map((c, i) => [c, sheet.rows[r.row_number - 2]![i] ?? null])),
  signers: r.signers,
  errors: r.errors,
});

/** The dashboard's preview: columns, a suggested mapping, the first rows with their errors. */
export async function previewBulkSend(sc: ServiceContext, actor: Actor, input: BulkUpload) {
  const scope = scopeOf(actor);
  const { template, sheet, mapping, rows, credits: row } = await readUpload(sc, scope, input);
  if (!row) throw new CoreError('not_found', `Account ${actor.accountId} was not found`);
  const credits = creditsDecision(row).state;
  return {
    object: 'bulk_send_preview' as const,
    template: { id: template.id, name: template.name, roles: template.roles },
    columns: sheet.columns,
    mapping,
    total_rows: rows.length,
    invalid_rows: rows.filter((r) => r.errors.length).length,
    rows: rows.slice(0, PREVIEW_ROWS).map((r) => rowView(sheet, r)),
    invalid: rows
      .filter((r) => r.errors.length)
      .slice(0, PREVIEW_ROWS)
      .map((r) => rowView(sheet, r)),
    can_send: actor.environment !== 'live' || credits.can_send,
  };
}

/** Without a `key`, the upload names itself: the same template, file and mapping are one batch. */
function batchKey(input: BulkUpload, mapping: BulkMapping): string {
  if (input.key) return input.key;
  return `sha256:${createHash('sha256')
    .update(JSON.stringify([input.template_id, mapping, input.file]))
    .digest('hex')}`;
}

async function insertRows(tx: Tx, batchId: number, rows: CheckedRow[], now: Date) {
  await insertBulkSendRows(
    tx,
    rows.map((r) => ({
      bulk_send_id: batchId,
      row_number: r.row_number,
      status: r.errors.length ? ('invalid' as const) : ('pending' as const),
      signers: json(r.signers),
      error_code: r.errors.length ? 'invalid_signer' : null,
      error_message: r.errors.length ? r.errors.join('; ') : null,
      updated_at: now,
    })),
  );
}

/**
 * POST /bulk_sends: credits are checked up front for the whole batch (one template: at most its one
 * credit); a retried upload (same `key`, or the same file and mapping) returns the first batch and
 * sends nothing again.
 */
export async function createBulkSend(
  sc: ServiceContext,
  actor: Actor,
  { source, ...input }: BulkUpload & { source: string },
): Promise<BulkSendDto> {
  const scope = scopeOf(actor);
  const now = sc.now();
  parseExpiry(input.expires_at, now);
  const { template, mapping, rows } = await readUpload(sc, scope, input);
  if (!rows.some((r) => !r.errors.length))
    throw new CoreError(
      'invalid_request',
      `No row can be sent: ${rows[0]!.errors.join('; ')} (row ${rows[0]!.row_number})`,
    );
  const key = batchKey(input, mapping);
  /** The batch of this upload: the one made now, or the one its key already names. */
  const insertBatch = async (tx: Tx): Promise<number> => {
    // Shared with sends, exclusive of edits: the template checked is the one the batch is made of.
    const locked = await shareTemplate(tx, actor, template.id);
    const existing = await findBulkSendIdByKey(tx, scope, key);
    if (existing !== undefined) return existing;
    assertCreditsRow(actor, locked.credits);
    const { template_id, file_name, signing_order, send_email, message, expires_at, cc, notify } = input;
    const { reminders, allow_delegation } = input;
    const batchId = await insertBulkSend(tx, {
      account_id: scope.accountId,
      environment: scope.environment,
      template_id,
      key,
      file_name,
      status: 'queued',
      options: json({
        signing_order,
        send_email,
        message,
        expires_at,
        mapping,
        cc,
        notify,
        reminders,
        allow_delegation,
      }),
      total_rows: rows.length,
      created_by_user_id: actor.userId,
      api_key_id: actor.apiKeyId,
      source,
      created_at: now,
      updated_at: now,
    });
    // The same key uploaded at the same moment: the other upload's batch is this one.
    if (batchId === undefined) return (await findBulkSendIdByKey(sc.db, scope, key))!;
    await insertRows(tx, batchId, rows, now);
    await recordAudit(tx, scope, {
      type: 'bulk_send.created',
      by: { kind: 'actor', actor },
      templateId: template_id,
      data: { bulk_send_id: batchId, rows: rows.length, file_name },
      now,
    });
    await enqueueJob(tx, { kind: BULK_SEND_JOB, payload: { id: batchId }, uniqueKey: `bulk:${batchId}` });
    return batchId;
  };
  const id = await sc.db.transaction().execute(async (tx) => {
    const batchId = await insertBatch(tx);
    // The Idempotency-Key's outcome commits with the batch (issue 41): a retry reads the batch.
    await commitIdempotentOutcome(tx, sc.idempotency, { resource: { type: 'bulk_send', id: batchId } });
    return batchId;
  });
  return getBulkSend(sc, scope, id);
}

async function requireBulkSend(db: Executor, scope: Scope, id: number): Promise<BulkSendRow> {
  const row = await findBulkSend(db, scope, id);
  if (!row) throw new CoreError('not_found', `Bulk send ${id} was not found`);
  return row;
}

export async function getBulkSend(sc: ServiceContext, scope: Scope, id: number): Promise<BulkSendDto> {
  const batch = await requireBulkSend(sc.db, scope, id);
  const counts = await countBulkSendRows(sc.db, id);
  const template = await findBulkSendTemplate(sc.db, batch.template_id);
  return toBulkSendDto(batch, template, counts);
}

/** Every row's outcome, in file order (the dashboard offers it as a CSV download). */
export async function listBulkSendRows(sc: ServiceContext, scope: Scope, id: number) {
  await requireBulkSend(sc.db, scope, id);
  const rows = await listRows(sc.db, id);
  return {
    object: 'list' as const,
    data: rows.map((r) => ({ object: 'bulk_send_row' as const, ...r })),
    has_more: false,
    next_cursor: null,
  };
}

/** POST /bulk_sends/{id}/resume: after a stop (credits ran out), sends the rows still pending. */
export async function resumeBulkSend(sc: ServiceContext, actor: Actor, id: number): Promise<BulkSendDto> {
  const scope = scopeOf(actor);
  await sc.db.transaction().execute(async (tx) => {
    const batch = await requireBulkSend(tx, scope, id);
    if (batch.status === 'stopped') {
      await assertCanSend(tx, actor, batch.template_id);
      await updateBulkSend(tx, id, { status: 'queued', stop_reason: null, updated_at: sc.now() });
      await enqueueJob(tx, { kind: BULK_SEND_JOB, payload: { id }, uniqueKey: `bulk:${id}` });
    }
    // The Idempotency-Key's outcome commits with the resume (issue 41): a retry reads the batch.
    await commitIdempotentOutcome(tx, sc.idempotency, { resource: { type: 'bulk_send', id } });
  });
  return getBulkSend(sc, scope, id);
}
