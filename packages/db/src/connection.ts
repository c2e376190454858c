import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

// int8 (bigint) columns hold ids and byte sizes well inside Number's safe range.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Anything that runs queries: the pool or an open transaction. */
export type Executor = Db | Tx;

export interface DbOptions {
  max?: number;
  applicationName?: string;
  /** How long opening a connection may take before the query waiting for it fails (default 10 s). */
  connectTimeoutMs?: number;
  /** Told about each connection lost outside a query (logging); the pool replaces it on demand. */
  onConnectionLost?: (err: Error) => void;
}

/**
 * A pool that survives its server: a connection ended by the server (pg_terminate_backend, a
 * restart, a failover, a network cut) fails only the query or transaction using it, with the
 * driver's error (adapters answer 500 internal_error), and the pool opens a new one for the next
 * caller. The process never crashes on it.
 */
export function createDb(connectionString: string, opts: DbOptions = {}): Db {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'esign',
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 10_000,
    // Finds peers that vanished without closing the connection (a partition, a killed host).
    keepAlive: true,
  });
  const lost = opts.onConnectionLost ?? (() => {});
  // An idle client losing its connection: the pool drops it.
  pool.on('error', (err) => lost(err));
  // pg-pool listens for errors only while a client is idle. A client that is checked out (between
  // two queries of a transaction, or while its query runs) and loses its connection emits 'error'
  // with no listener, which Node turns into an uncaught exception. Its caller sees the failure on
  // its query already, and the pool discards the client on release (it is no longer queryable).
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Serialises a value for a jsonb column (pg would turn a JS array into an SQL array). */
export function json<T>(value: T): string {
  return JSON.stringify(value);
}
