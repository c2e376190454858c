import type { Db } from '@esign/db';
import { sql } from 'kysely';
import pg from 'pg';

export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * Every statement any pg client of this process sends while `fn` runs (the app under test shares
 * the process with the test): how many round trips a request costs, counted where they leave.
 */
export async function recordStatements<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; statements: string[]; sent: Statement[] }> {
  const sent: Statement[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const text = typeof first === 'string' ? first : String((first as { text?: string })?.text ?? first);
    sent.push({ text, values: Array.isArray(second) ? second : [] });
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, statements: sent.map((s) => s.text), sent };
  } finally {
    proto.query = original;
  }
}

/**
 * `n` copies of one row of `table` (every column but `id`), made in one statement: a page of rows
 * that production made once, without paying production's cost per row. Returns the new ids.
 */
export async function cloneRow(
  db: Db,
  table: 'templates' | 'signature_requests',
  id: number,
  n: number,
): Promise<number[]> {
  const cols = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} and column_name <> 'id'
    order by ordinal_position`.execute(db);
  const list = sql.join(cols.rows.map((c) => sql.ref(c.column_name)));
  const copies = await sql<{ id: number }>`
    insert into ${sql.table(table)} (${list})
    select ${list} from ${sql.table(table)}, generate_series(1, ${n}) where id = ${id}
    returning id`.execute(db);
  if (table === 'signature_requests') {
    const signerCols = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = 'signers'
        and column_name not in ('id', 'signature_request_id', 'token_nonce', 'token_hash')
      order by ordinal_position`.execute(db);
    const sl = sql.join(signerCols.rows.map((c) => sql.ref(`s.${c.column_name}`)));
    const names = sql.join(signerCols.rows.map((c) => sql.ref(c.column_name)));
    await sql`
      insert into signers (signature_request_id, ${names})
      select r.id, ${sl} from signers s cross join unnest(${copies.rows.map((r) => r.id)}::int[]) as r(id)
      where s.signature_request_id = ${id}`.execute(db);
  }
  return copies.rows.map((r) => r.id);
}
