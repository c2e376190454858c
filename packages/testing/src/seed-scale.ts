import { createHash } from 'node:crypto';
import type { Db } from '@esign/db';
import { type RawBuilder, sql } from 'kysely';
import pg from 'pg';

/**
 * Which status the g-th seeded request gets: a permutation of every 10,000 consecutive values of g
 * (7919 is prime to 10,000; bigint, since 1M × 7919 overflows an integer), so a small seed (1,000 requests) gets the same mix as a large one
 * instead of only the first statuses of the cycle.
 */
const KEY = '((g::bigint * 7919) % 10000)';

/**
 * Statuses of seeded requests, per 10,000: mostly finished, a few open, rare declined and expired
 * (the mix the "rare status" rows measure).
 */
const STATUS_MIX = sql.raw(`case
  when ${KEY} < 8800 then 'completed'
  when ${KEY} < 9500 then 'canceled'
  when ${KEY} < 9800 then 'sent'
  when ${KEY} < 9950 then 'in_progress'
  when ${KEY} < 9990 then 'declined'
  else 'expired' end`);

/**
 * A third of the requests have an expiry date: finished ones spread around now, open ones
 * (sent, in progress) in the future only. The worker turns an open request past its date into
 * `expired` within 30 s (README, housekeeping), so a seed full of overdue open requests would be a
 * state production never stays in.
 */
const EXPIRY = sql.raw(`case when g % 3 = 0 then now() + (case
  when ${KEY} >= 9500 and ${KEY} < 9950 then (g % 97) + 1
  else (g % 97) - 30 end) * interval '1 day' end`);

/** The email of the signer seeded for request `id`: a distinct local part at a shared domain. */
export function seededEmail(id: number): string {
  return `${createHash('md5').update(String(id)).digest('hex').slice(0, 12)}@example.com`;
}

export interface SeedScale {
  /** How many requests to add to the prototype's account side. */
  requests: number;
  /** A request made by production code: its snapshot and account side are copied. */
  prototypeId: number;
  /** Every `rareEvery`-th request uses `rareTemplateId` instead of the prototype's template. */
  rareTemplateId?: number;
  rareEvery?: number;
  /**
   * false: insert the signers as production does, into the indexes' small pending lists (see
   * bulkLoad); default true.
   */
  bulk?: boolean;
}

/**
 * Seeds a large account in a few statements (generate_series): `requests` copies of a prototype
 * request, each with one signer named `Signer <id>`, email `seededEmail(id)` and phone
 * `+1555<id, 7 digits>`; statuses per STATUS_MIX, expiry dates per EXPIRY. Then ANALYZE.
 */
export async function seedRequests(db: Db, s: SeedScale): Promise<void> {
  const rareEvery = s.rareEvery ?? 1000;
  const rare = s.rareTemplateId ?? null;
  await sql`
    insert into signature_requests (account_id, environment, template_id, template_name, status,
      signing_order, source, created_by_user_id, api_key_id, snapshot, expires_at, completed_at,
      created_at, updated_at)
    select p.account_id, p.environment,
      case when ${rare}::int is not null and g % ${rareEvery} = 7 then ${rare}::int else p.template_id end,
      p.template_name, ${STATUS_MIX}, p.signing_order, p.source, p.created_by_user_id, p.api_key_id,
      p.snapshot,
      ${EXPIRY},
      case when ${sql.raw(KEY)} < 8800 then now() end,
      now(), now()
    from signature_requests p, generate_series(1, ${s.requests}) g
    where p.id = ${s.prototypeId}`.execute(db);
  const signers = sql`
      insert into signers (signature_request_id, account_id, environment, position, role, name, email,
        phone, status, created_at, updated_at)
      select r.id, r.account_id, r.environment, 0, 'Signer', 'Signer ' || r.id,
        substr(md5(r.id::text), 1, 12) || '@example.com', '+1555' || lpad(r.id::text, 7, '0'),
        case when r.status = 'completed' then 'signed' else 'sent' end, now(), now()
      from signature_requests r
      where r.account_id = (select account_id from signature_requests where id = ${s.prototypeId})
        and r.id > ${s.prototypeId}
        and not exists (select 1 from signers x where x.signature_request_id = r.id)`;
  if (s.bulk === false) await signers.execute(db);
  else await bulkLoad(db, 'signers', signers);
  await sql`analyze signature_requests`.execute(db);
  await sql`analyze signers`.execute(db);
  await sql`analyze templates`.execute(db);
}

/**
 * Runs one bulk insert into `table` the way a bulk load should meet its trigram (GIN) indexes:
 * production keeps their pending lists small (migration 2026_11_24_0140), so that many rows
 * inserted at once would be merged into the index a hundred at a time. Here the lists may grow
 * during the insert and are merged once after it (as a vacuum would), then the indexes get their
 * own settings back: the index ends as production leaves it, in a fraction of the time.
 */
async function bulkLoad(db: Db, table: string, insert: RawBuilder<unknown>): Promise<void> {
  const { rows } = await sql<{ name: string; options: string[] | null }>`
    select c.relname as name, c.reloptions as options
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
    where i.indrelid = ${table}::regclass and am.amname = 'gin'`.execute(db);
  for (const index of rows) {
    await sql`alter index ${sql.id(index.name)} set (gin_pending_list_limit = 1048576)`.execute(db);
  }
  try {
    await insert.execute(db);
  } finally {
    for (const index of rows) {
      const own = index.options?.find((o) => o.startsWith('gin_pending_list_limit='));
      const restore = own ? sql`set (${sql.raw(own)})` : sql`reset (gin_pending_list_limit)`;
      await sql`alter index ${sql.id(index.name)} ${restore}`.execute(db);
      await sql`select gin_clean_pending_list(${index.name}::regclass)`.execute(db);
    }
  }
}

/**
 * `n` copies of a template made by production code, named `Template <n>` with external_id `ext-<n>`;
 * every 1000th is archived and every 500th is in the prototype's folder (rare filters). Then ANALYZE.
 */
export async function seedTemplates(db: Db, prototypeId: number, n: number): Promise<void> {
  await bulkLoad(
    db,
    'templates',
    sql`
      insert into templates (account_id, environment, name, external_id, folder_id, roles, source,
        created_by_user_id, api_key_id, archived_at, created_at, updated_at)
      select p.account_id, p.environment, 'Template ' || g, 'ext-' || g,
        case when g % 500 = 0 then p.folder_id end, p.roles, p.source, p.created_by_user_id,
        p.api_key_id, case when g % 1000 = 0 then now() end, now(), now()
      from templates p, generate_series(1, ${n}) g
      where p.id = ${prototypeId}`,
  );
  await sql`analyze templates`.execute(db);
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

export interface PlanSummary {
  /** Every index the plan uses. */
  indexes: string[];
  /** Per index: the pages its scans read (a bitmap index scan reads only the index). */
  indexPages: Record<string, number>;
  /** Tables read by a sequential scan. */
  seqScans: string[];
  /** Rows every scan node produced or threw away, loops included: how much of the table was read. */
  rowsRead: number;
  /** The plan as EXPLAIN printed it, for failure messages. */
  json: unknown;
}

function walk(node: PlanNode, into: PlanSummary): void {
  const index = node['Index Name'];
  if (index) {
    into.indexes.push(index);
    const pages = (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0);
    into.indexPages[index] = (into.indexPages[index] ?? 0) + pages;
  }
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) into.seqScans.push(node['Relation Name']);
  if (node['Node Type'].includes('Scan') && !node['Node Type'].startsWith('Bitmap Index')) {
    const perLoop =
      (node['Actual Rows'] ?? 0) +
      (node['Rows Removed by Filter'] ?? 0) +
      (node['Rows Removed by Index Recheck'] ?? 0);
    into.rowsRead += perLoop * (node['Actual Loops'] ?? 1);
  }
  for (const child of node.Plans ?? []) walk(child, into);
}

/**
 * EXPLAIN ANALYZE of one statement as the app sent it: the indexes used and the rows read. With
 * `noSeqScan`, sequential scans are priced out (`enable_seqscan = off`): at a test's scale the
 * planner may rightly prefer reading a small table whole, and the question is whether an index
 * serves the filter with a bounded read (the 1M-row bench measures the planner's own choice).
 */
export async function explainAnalyze(
  dbUrl: string,
  text: string,
  values: unknown[],
  opts: { noSeqScan?: boolean } = {},
): Promise<PlanSummary> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    if (opts.noSeqScan) await client.query('set enable_seqscan = off');
    const { rows } = await client.query(`explain (analyze, buffers, format json) ${text}`, values);
    const plan = (rows[0]['QUERY PLAN'] as [{ Plan: PlanNode }])[0].Plan;
    const summary: PlanSummary = { indexes: [], indexPages: {}, seqScans: [], rowsRead: 0, json: plan };
    walk(plan, summary);
    return summary;
  } finally {
    await client.end();
  }
}
