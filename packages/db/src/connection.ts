import {
  type Compilable,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type Transaction,
} from 'kysely';
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
  /**
   * Longest a checkout of a connection may take, waiting for a free one or opening a new one
   * (default 10 s); past it the query fails with DatabaseUnavailableError.
   */
  acquireTimeoutMs?: number;
  /**
   * Longest one statement may take (unset: no limit). The server cancels a statement a little
   * before (`statement_timeout`, a fifth of it earlier, at most 1 s: error 57014); a server that
   * does not answer at all (frozen, stopped, cut off) is given up on at the limit: the connection is
   * closed and the query fails with DatabaseUnavailableError, so no statement holds its caller
   * longer.
   */
  statementTimeoutMs?: number;
  /** Told about each connection lost outside a query (logging); the pool replaces it on demand. */
  onConnectionLost?: (err: Error) => void;
  /**
   * Told how long each checkout of a connection took (ms), whether it got one or not: the wait
   * for a free connection when all are busy, or the time to open a new one (metrics).
   */
  onAcquire?: (ms: number) => void;
}

/** The pool's connections now: open (idle or checked out), idle, and queries waiting for one. */
export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

/** SQL text → statement name: the statements sent as prepared statements (preparedSql, compiledOnce). */
const PREPARED = new Map<string, string>();
/** Beyond this many prepared texts a process sends new ones unnamed (a bound on server memory). */
const MAX_PREPARED = 500;

/**
 * Marks a fixed SQL text (one that runs on every request, such as the API key and rate-limit
 * statement) to be sent as a named statement: each pooled connection has PostgreSQL parse and plan
 * it once, then only binds and executes it (planning that statement cost more than running it).
 * Returns the text, to be run as usual (`CompiledQuery.raw`). Only for statements whose result
 * columns are listed explicitly, so that a later migration cannot change them under a connection.
 */
export function preparedSql(name: string, text: string): string {
  const known = PREPARED.get(text);
  if (known !== undefined && known !== name)
    throw new Error(`${name}: this SQL is already prepared as ${known}`);
  PREPARED.set(text, name);
  return text;
}

/** Where a value goes in a statement compiled once (compiledOnce). */
class Slot {
  readonly key: string;
  constructor(key: string) {
    this.key = key;
  }
}

/**
 * A read built and compiled once per shape, then only filled in and run prepared (one statement
 * name per shape, see preparedSql): `build(db, slots, shape)` puts `slots.x` wherever `values.x`
 * goes and decides the query's structure (which filters it has) from `shape` alone, which `key`
 * names. For reads every request runs, where building and compiling the query cost more than
 * running it. Anything `build` takes from elsewhere is fixed at the first call of its shape.
 */
export function compiledOnce<S, V extends Record<string, unknown>, R>(
  name: string,
  key: (shape: S) => string,
  build: (db: Executor, slots: V, shape: S) => Compilable<R>,
): (db: Executor, shape: S, values: V) => Promise<R[]> {
  const compiled = new Map<string, { sql: string; parameters: readonly unknown[] }>();
  const slots = new Proxy({}, { get: (_, k) => new Slot(String(k)) }) as V;
  return async (db, shape, values) => {
    const k = key(shape);
    let entry = compiled.get(k);
    if (!entry) {
      entry = build(db, slots, shape).compile();
      compiled.set(k, entry);
      if (PREPARED.size < MAX_PREPARED) PREPARED.set(entry.sql, `${name}_${PREPARED.size}`);
    }
    const parameters = entry.parameters.map((p) => (p instanceof Slot ? values[p.key] : p));
    return (await db.executeQuery<R>(CompiledQuery.raw(entry.sql, parameters))).rows;
  };
}

/** Up to this many rows an insert runs prepared (see preparedInsert); more are built as usual. */
const PREPARED_INSERT_ROWS = 4;

const isExpression = (v: unknown) =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { toOperationNode?: unknown }).toOperationNode === 'function';

/**
 * An insert every request makes (a send's request and signers), built and compiled once per shape
 * and run prepared, as compiledOnce does for reads: the shape is each row's columns, so a column a
 * row leaves out keeps its DEFAULT. `build(db, rows)` adds the statement's `returning`. Rows whose
 * values are SQL expressions (their values would be fixed at the first call), and more than a few
 * rows (bulk sends: shapes without end), are built as usual.
 */
export function preparedInsert<R extends Record<string, unknown>, T>(
  name: string,
  build: (db: Executor, rows: R[]) => Compilable<T>,
): (db: Executor, rows: R[]) => Promise<T[]> {
  const run = compiledOnce(
    name,
    (columns: string[][]) => columns.map((c) => c.join(',')).join('|'),
    (db, slots: Record<string, unknown>, columns: string[][]) =>
      build(
        db,
        columns.map((cols, i) => Object.fromEntries(cols.map((c) => [c, slots[`${i}:${c}`]])) as R),
      ),
  );
  return async (db, rows) => {
    if (rows.length === 0) return [];
    const values: Record<string, unknown> = {};
    const columns: string[][] = [];
    for (const [i, row] of rows.entries()) {
      const cols = Object.keys(row).filter((c) => row[c] !== undefined);
      columns.push(cols);
      for (const c of cols) values[`${i}:${c}`] = row[c];
    }
    if (rows.length > PREPARED_INSERT_ROWS || Object.values(values).some(isExpression)) {
      return (await db.executeQuery<T>(build(db, rows).compile())).rows;
    }
    return run(db, columns, values);
  };
}

type QueryFn = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * The database did not answer in time: no connection within the acquire timeout, or a statement
 * past the statement timeout (cancelled by the server, or a server that does not answer at all).
 * Adapters answer it `503` with `Retry-After` (core's toCoreError).
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** PostgreSQL's query_canceled: a statement past `statement_timeout` (or cancelled by an operator). */
const QUERY_CANCELED = '57014';

/** True for an error that says the database did not answer in time (see DatabaseUnavailableError). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  return (err as { code?: unknown } | null)?.code === QUERY_CANCELED;
}

/** The server's statement_timeout for a client limit of `ms`: a fifth earlier, at most 1 s earlier. */
function serverStatementTimeout(ms: number): number {
  return Math.max(1, ms - Math.min(1_000, Math.round(ms / 5)));
}

/**
 * Gives each statement of this client `ms` to answer: past it, the connection is closed (a late
 * answer could otherwise reach the next user of the connection, or leave its transaction open), so
 * the query fails at once and the pool discards the client. Only promise queries are timed (what
 * Kysely sends); a cursor's reads have the server's statement_timeout.
 */
function limitStatementTime(client: pg.PoolClient, ms: number): void {
  const own = client as unknown as { query: QueryFn; connection?: { stream?: { destroy(): void } } };
  const query = own.query;
  own.query = (config, values, callback) => {
    const result = query.call(client, config, values, callback);
    if (!(result instanceof Promise)) return result;
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      own.connection?.stream?.destroy();
    }, ms);
    return result.then(
      (value: unknown) => {
        clearTimeout(timer);
        return value;
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!late) throw err;
        throw new DatabaseUnavailableError(`The database did not answer within ${ms} ms`, { cause: err });
      },
    );
  };
}

/**
 * Sends the texts given to preparedSql as named statements on this client. Should a migration
 * still change such a statement's result (PostgreSQL then refuses the cached plan: 0A000), this
 * connection runs it unnamed from then on, and the query is retried once that way.
 */
function prepareNamedStatements(client: pg.PoolClient): void {
  // pg's own query, looked up at each call (what wraps pg.Client.prototype.query, such as the tests'
  // statement recorder, still sees every statement).
  const proto = Object.getPrototypeOf(client) as { query: QueryFn };
  const query: QueryFn = (config, values, callback) => proto.query.call(client, config, values, callback);
  const unnamed = new Set<string>();
  (client as unknown as { query: QueryFn }).query = (config, values, callback) => {
    const name = typeof config === 'string' && callback === undefined ? PREPARED.get(config) : undefined;
    if (name === undefined || unnamed.has(name)) return query(config, values, callback);
    return (query({ name, text: config }, values) as Promise<unknown>).catch((err: { code?: string }) => {
      if (err?.code !== '0A000') throw err;
      unnamed.add(name);
      return query(config, values);
    });
  };
}

/**
 * A pool that survives its server: a connection ended by the server (pg_terminate_backend, a
 * restart, a failover, a network cut) fails only the query or transaction using it, with the
 * driver's error (adapters answer 500 internal_error), and the pool opens a new one for the next
 * caller. The process never crashes on it.
 */
export function createDb(connectionString: string, opts: DbOptions = {}): Db {
  return createDbPool(connectionString, opts).db;
}

/** createDb, with what its pool is doing now (`stats`, for metrics). */
export function createDbPool(connectionString: string, opts: DbOptions = {}): { db: Db; stats(): PoolStats } {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'esign',
    connectionTimeoutMillis: opts.acquireTimeoutMs ?? 10_000,
    // Sent at connection start: the server cancels a longer statement (57014) a little before the
    // client gives up on it, so a slow statement on a live server keeps its connection.
    ...(opts.statementTimeoutMs
      ? { statement_timeout: serverStatementTimeout(opts.statementTimeoutMs) }
      : {}),
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
    prepareNamedStatements(client);
    if (opts.statementTimeoutMs) limitStatementTime(client, opts.statementTimeoutMs);
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: timedCheckouts(pool, opts) }),
  });
  return {
    db,
    stats: () => ({
      max: pool.options.max,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}

/**
 * The pool as Kysely sees it: a checkout that timed out fails with DatabaseUnavailableError, and
 * each checkout is timed for `onAcquire`.
 */
function timedCheckouts(pool: pg.Pool, opts: DbOptions): PostgresPool {
  const { onAcquire } = opts;
  const limitMs = opts.acquireTimeoutMs ?? 10_000;
  return {
    Client: (pool as unknown as Pick<PostgresPool, 'Client'>).Client,
    options: pool.options,
    end: () => pool.end(),
    async connect() {
      const started = performance.now();
      try {
        return await pool.connect();
      } catch (err) {
        // pg-pool's two timeouts: no free connection in time, or a new one not opened in time.
        if (err instanceof Error && /timeout/i.test(err.message))
          throw new DatabaseUnavailableError(`No database connection within ${limitMs} ms`, { cause: err });
        throw err;
      } finally {
        onAcquire?.(performance.now() - started);
      }
    },
  };
}

/** Serialises a value for a jsonb column (pg would turn a JS array into an SQL array). */
export function json<T>(value: T): string {
  return JSON.stringify(value);
}
