import { createHash } from 'node:crypto';
import { type BulkSendRow, type Executor, json, type Tx } from '@esign/db';
import { type Actor, type Scope, scopeOf } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import { getCredits } from '../credits.ts';
import { enqueueJob } from '../jobs.ts';
import type { ServiceContext } from '../service-context.ts';
import { assertCanSend } from '../signature-requests/create.ts';
import { parseExpiry } from '../signature-requests/plan.ts';
import {
  loadTemplateDocuments,
  loadTemplateFields,
  lockTemplate,
  requireTemplate,
} from '../templates/queries.ts';
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
}

export interface BulkUpload extends BulkOptions {
  template_id: number;
  file: string;
  file_name: string;
  mapping?: BulkMapping;
  key?: string;
}

async function readUpload(sc: ServiceContext, scope: Scope, input: BulkUpload) {
  const template = await requireTemplate(sc.db, scope, input.template_id);
  const fields = await loadTemplateFields(sc.db, template.id);
  const documents = await loadTemplateDocuments(sc.db, template.id);
  const sheet = await readSpreadsheet(decodeFile(input.file), input.file_name);
  const mapping = input.mapping ?? suggestMapping(sheet.columns, template, fields);
  checkMapping(mapping, sheet.columns, template);
  const rows = await checkRows(sheet, mapping, { template, fields, documents });
  return { template, sheet, mapping, rows };
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
  const { template, sheet, mapping, rows } = await readUpload(sc, scope, input);
  const credits = await getCredits(sc.db, actor.accountId);
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
  for (let i = 0; i < rows.length; i += 500) {
    await tx
      .insertInto('bulk_send_rows')
      .values(
        rows.slice(i, i + 500).map((r) => ({
          bulk_send_id: batchId,
          row_number: r.row_number,
          status: r.errors.length ? ('invalid' as const) : ('pending' as const),
          signers: json(r.signers),
          error_code: r.errors.length ? 'invalid_signer' : null,
          error_message: r.errors.length ? r.errors.join('; ') : null,
          updated_at: now,
        })),
      )
      .execute();
  }
}

/**
 * POST /bulk_sends: credits are checked up front for the whole batch (one template: at most its one
 * credit); a retried upload (same `key`, or the same file and mapping) returns the first batch and
 * sends nothing again.
 */
export async function createBulkSend(
  sc: ServiceContext,
  actor: Actor,
  input: BulkUpload,
  source: string,
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
  const id = await sc.db.transaction().execute(async (tx) => {
    await lockTemplate(tx, scope, template.id);
    const existing = await findBatchByKey(tx, scope, key);
    if (existing) return existing.id;
    await assertCanSend(tx, actor, template.id);
    const { template_id, file_name, signing_order, send_email, message, expires_at } = input;
    const batch = await tx
      .insertInto('bulk_sends')
      .values({
        account_id: scope.accountId,
        environment: scope.environment,
        template_id,
        key,
        file_name,
        status: 'queued',
        options: json({ signing_order, send_email, message, expires_at, mapping }),
        total_rows: rows.length,
        created_by_user_id: actor.userId,
        api_key_id: actor.apiKeyId,
        source,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertRows(tx, batch.id, rows, now);
    await recordAudit(tx, scope, {
      type: 'bulk_send.created',
      by: { kind: 'actor', actor },
      templateId: template_id,
      data: { bulk_send_id: batch.id, rows: rows.length, file_name },
      now,
    });
    await enqueueJob(tx, { kind: BULK_SEND_JOB, payload: { id: batch.id }, uniqueKey: `bulk:${batch.id}` });
    return batch.id;
  });
  return getBulkSend(sc, scope, id);
}

function findBatchByKey(db: Executor, scope: Scope, key: string) {
  return db
    .selectFrom('bulk_sends')
    .select('id')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('key', '=', key)
    .executeTakeFirst();
}

async function requireBulkSend(db: Executor, scope: Scope, id: number): Promise<BulkSendRow> {
  const row = await db
    .selectFrom('bulk_sends')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
  if (!row) throw new CoreError('not_found', `Bulk send ${id} was not found`);
  return row;
}

export async function getBulkSend(sc: ServiceContext, scope: Scope, id: number): Promise<BulkSendDto> {
  const batch = await requireBulkSend(sc.db, scope, id);
  const counts = await sc.db
    .selectFrom('bulk_send_rows')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('bulk_send_id', '=', id)
    .groupBy('status')
    .execute();
  const template = await sc.db
    .selectFrom('templates')
    .select(['id', 'name'])
    .where('id', '=', batch.template_id)
    .executeTakeFirstOrThrow();
  return toBulkSendDto(batch, template, counts);
}

/** Every row's outcome, in file order (the dashboard offers it as a CSV download). */
export async function listBulkSendRows(sc: ServiceContext, scope: Scope, id: number) {
  await requireBulkSend(sc.db, scope, id);
  const rows = await sc.db
    .selectFrom('bulk_send_rows')
    .select(['row_number', 'status', 'signers', 'error_code', 'error_message', 'signature_request_id'])
    .where('bulk_send_id', '=', id)
    .orderBy('row_number')
    .execute();
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
    if (batch.status !== 'stopped') return;
    await assertCanSend(tx, actor, batch.template_id);
    await tx
      .updateTable('bulk_sends')
      .set({ status: 'queued', stop_reason: null, updated_at: sc.now() })
      .where('id', '=', id)
      .execute();
    await enqueueJob(tx, { kind: BULK_SEND_JOB, payload: { id }, uniqueKey: `bulk:${id}` });
  });
  return getBulkSend(sc, scope, id);
}
