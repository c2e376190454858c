import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

// int8 (bigint) columns hold ids and byte sizes well inside Number's safe range.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Anything that runs queries: the pool or an open transaction. */
export type Executor = Db | Tx;

export function createDb(
  connectionString: string,
  opts: { max?: number; applicationName?: string } = {},
): Db {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'esign',
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Serialises a value for a jsonb column (pg would turn a JS array into an SQL array). */
export function json<T>(value: T): string {
  return JSON.stringify(value);
}
