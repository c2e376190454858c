import type { BulkSendRow, Tx } from '@esign/db';
import {
  claimPendingBulkRows,
  findBulkSendById,
  hasPendingBulkRows,
  markBulkRowsFailed,
  markBulkRowsSent,
  type PendingBulkRow,
  updateBulkSend,
} from '@esign/db/queries/bulk-sends';
import type { Actor } from '../../context.ts';
import type { CreateSignatureRequestInput } from '../../contracts/signature-requests.ts';
import { CoreError } from '../../errors.ts';
import { actingUser } from '../acting-user.ts';
import type { JobHandler } from '../jobs.ts';
import type { ServiceContext } from '../service-context.ts';
import {
  assertCreditsRow,
  type PlannedRequest,
  type SendBatch,
  shareTemplate,
  writePlannedRequests,
} from '../signature-requests/create.ts';
import { keepImages, parseExpiry, planRequest } from '../signature-requests/plan.ts';
import type { BulkOptions } from './batches.ts';
import type { BulkMapping } from './mapping.ts';

// The worker's side of a bulk send: pending rows are claimed in chunks, in file order, each chunk
// in one transaction that reads the template once (shared lock, as a single send does), checks
// the credits once, writes all the chunk's requests and signers in a statement each, and marks
// every row sent (or failed, with its error) in that same transaction. A row is therefore sent
// exactly once, however often the job runs or how many workers run it (a claimed row is locked,
// another worker skips it), and the progress shown (rows sent) is never ahead of the requests
// that exist: both commit together.

/** Rows per transaction: the progress moves in steps of this many; a chunk is ~100 ms of work. */
const CHUNK = 100;

/** Errors that would refuse every later row too: the batch stops, the rest stay pending. */
const STOPPING = new Set([
  'insufficient_credits',
  'template_archived',
  'template_has_no_fields',
  'not_found',
]);

type Outcome = { kind: 'empty' } | { kind: 'stop'; error: CoreError } | { kind: 'sent'; rows: number };

function requestInput(batch: BulkSendRow, row: PendingBulkRow): CreateSignatureRequestInput {
  const options = batch.options as unknown as BulkOptions & { mapping: BulkMapping };
  return {
    template_id: batch.template_id,
    signers: row.signers as never,
    signing_order: options.signing_order,
    send_email: options.send_email,
    ...(options.message ? { message: options.message } : {}),
    ...(options.expires_at ? { expires_at: options.expires_at } : {}),
    // Issue 34: the batch's CC and notify addresses, on every request (with the account's defaults).
    ...(options.cc ? { cc: options.cc } : {}),
    ...(options.notify ? { notify: options.notify } : {}),
    ...(options.reminders !== undefined ? { reminders: options.reminders } : {}),
    allow_delegation: options.allow_delegation ?? false,
    require_email_otp: false,
    embed: false,
  };
}

/** One chunk in one transaction; a stopping error rolls it back whole (its rows stay pending). */
async function sendChunk(tx: Tx, b: SendBatch, batch: BulkSendRow, limit: number): Promise<Outcome> {
  const rows = await claimPendingBulkRows(tx, batch.id, limit);
  if (!rows.length) return { kind: 'empty' };
  const source = await shareTemplate(tx, b.actor, batch.template_id);
  assertCreditsRow(b.actor, source.credits);
  const planned: (PlannedRequest & { rowNumber: number })[] = [];
  const failed: { rowNumber: number; code: string; message: string }[] = [];
  for (const row of rows) {
    const input = requestInput(batch, row);
    try {
      const expiresAt = parseExpiry(input.expires_at, b.now);
      const plan = await planRequest(source, input.signers ?? [], keepImages);
      planned.push({ input, expiresAt, plan, rowNumber: row.row_number });
    } catch (err) {
      if (!(err instanceof CoreError) || err.code === 'internal_error' || STOPPING.has(err.code)) throw err;
      failed.push({ rowNumber: row.row_number, code: err.code, message: err.message });
    }
  }
  const written = await writePlannedRequests(
    tx,
    {
      ...b,
      recipientDefaults: source.recipient_defaults,
      accountLocale: source.account_locale,
      accountReminders: source.account_reminders,
    },
    planned,
  );
  await markBulkRowsSent(tx, batch.id, {
    sent: written.map((w, i) => ({ rowNumber: planned[i]!.rowNumber, requestId: w.request.id })),
    now: b.now,
  });
  await markBulkRowsFailed(tx, batch.id, { failed, now: b.now });
  return { kind: 'sent', rows: rows.length };
}

async function runChunk(
  sc: ServiceContext,
  actor: Actor,
  batch: BulkSendRow,
  limit: number,
): Promise<Outcome> {
  const b: SendBatch = {
    actor,
    scope: { accountId: batch.account_id, environment: batch.environment },
    source: 'bulk',
    config: sc.config,
    now: sc.now(),
  };
  try {
    // The chunk's invitations are queued jobs (with their wake-up): the worker's mail jobs send
    // them while the next chunk is written, instead of this job waiting up to 3 s per chunk.
    return await sc.db.transaction().execute((tx) => sendChunk(tx, b, batch, limit));
  } catch (err) {
    if (err instanceof CoreError && STOPPING.has(err.code)) return { kind: 'stop', error: err };
    throw err;
  }
}

async function finish(sc: ServiceContext, batchId: number, stop: CoreError | null) {
  const now = sc.now();
  await updateBulkSend(
    sc.db,
    batchId,
    stop
      ? { status: 'stopped', stop_reason: `${stop.code}: ${stop.message}`, updated_at: now }
      : { status: 'completed', finished_at: now, updated_at: now },
  );
}

/**
 * Sends a batch's pending rows in file order (at most `maxRows` of them when given: tests and
 * benchmarks step through a batch). Stops cleanly at the first chunk refused for want of credits.
 */
export async function processBulkSend(sc: ServiceContext, batchId: number, opts: { maxRows?: number } = {}) {
  const batch = await findBulkSendById(sc.db, batchId);
  if (!batch || batch.status === 'completed' || batch.status === 'stopped') return;
  await updateBulkSend(sc.db, batchId, { status: 'running', updated_at: sc.now() });
  const scope = { accountId: batch.account_id, environment: batch.environment };
  const actor = await actingUser(sc.db, scope, {
    userId: batch.created_by_user_id!,
    apiKeyId: batch.api_key_id,
  });
  let budget = opts.maxRows ?? Number.POSITIVE_INFINITY;
  while (budget > 0) {
    const outcome = await runChunk(sc, actor, batch, Math.min(CHUNK, budget));
    if (outcome.kind === 'empty') {
      // Rows still pending here are another worker's chunk in flight: that worker finishes.
      if (await hasPendingBulkRows(sc.db, batchId)) return;
      return finish(sc, batchId, null);
    }
    if (outcome.kind === 'stop') return finish(sc, batchId, outcome.error);
    budget -= outcome.rows;
  }
}

export const bulkSendJob: JobHandler = async (ctx, payload) => {
  await processBulkSend(ctx, Number(payload.id));
};
