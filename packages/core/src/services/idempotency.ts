import type { Db } from '@esign/db';
import {
  deleteExpiredIdempotencyRecords,
  deleteIdempotencyRecordAsRead,
  deleteRunningIdempotencyClaim,
  findIdempotencyRecord,
  insertIdempotencyClaim,
  renewIdempotencyLeases,
  storeIdempotentResponse,
} from '@esign/db/queries/idempotency';
import type { Logger } from 'pino';
import { CoreError } from '../errors.ts';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A `running` record is a claim with a lease: the process running its request renews it every
 * RENEW_EVERY_MS, so a record whose process died (a crash, kill -9, a lost host) is taken over
 * this long after its last renewal, and the client's retry runs instead of getting 409.
 */
export const IDEMPOTENCY_LEASE_MS = 15_000;
const RENEW_EVERY_MS = 5_000;
/** After a renewal that failed (the database was unreachable), the next try comes sooner. */
const RENEW_RETRY_MS = 1_000;

export interface IdempotencyRequest {
  apiKeyId: number;
  path: string;
  key: string;
  requestHash: string;
}

export type IdempotencyStart = { kind: 'new' } | { kind: 'replay'; status: number; body: string };

/** Rule 1: at most 255 characters. */
export function checkIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > 255) {
    throw new CoreError('invalid_parameter', 'Idempotency-Key must be 1 to 255 characters long');
  }
}

/**
 * Claims the key (rules 2, 4, 5). The insert is atomic, so concurrent retries across processes see
 * exactly one `new`; the others get 409 while it runs and the stored response once it is done.
 */
export async function beginIdempotent(db: Db, req: IdempotencyRequest, now: Date): Promise<IdempotencyStart> {
  checkIdempotencyKey(req.key);
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await insertIdempotencyClaim(db, req, {
      requestHash: req.requestHash,
      lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
    });
    if (inserted) {
      leasesOf(db).hold(req);
      return { kind: 'new' };
    }

    const existing = await findIdempotencyRecord(db, req);
    if (!existing) continue; // released between our insert and select: try again
    const stale =
      existing.expires_at <= now || (existing.status === 'running' && existing.locked_until <= now);
    if (stale) {
      await deleteIdempotencyRecordAsRead(db, req, existing);
      continue;
    }
    if (existing.request_hash !== req.requestHash) {
      throw new CoreError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request body; use a new key',
      );
    }
    if (existing.status === 'running') {
      throw new CoreError(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still running; retry shortly with the same key',
      );
    }
    return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' };
  }
  throw new CoreError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is being processed; retry shortly',
  );
}

/**
 * Rule 2: the first successful response is stored. The work it answers is done (committed), so a
 * retry must replay it, never run it again: if the database refuses the statement (a dropped
 * connection, a restart), the claim stays held (its lease renewed) and storing is retried in the
 * background with back-off for up to STORE_RETRY_FOR_MS, while retries of the key get 409. The
 * caller answers its client at once either way. (Its positional signature is the one the
 * black-box idempotency tests call.)
 */
export async function completeIdempotent(
  db: Db,
  req: IdempotencyRequest,
  status: number,
  body: string,
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>,
): Promise<void> {
  const store = () => storeIdempotentResponse(db, req, { status, body });
  try {
    await store();
    leasesOf(db).drop(req);
  } catch (err) {
    logger?.warn({ err }, 'idempotent response not stored yet; retrying while the key stays claimed');
    retryStore(store, STORE_RETRY_FOR_MS)
      .then(
        () => logger?.info('idempotent response stored after a retry'),
        (last: unknown) =>
          logger?.error(
            { err: last },
            'idempotent response could not be stored; the key lapses with its lease',
          ),
      )
      .finally(() => leasesOf(db).drop(req))
      .catch(() => {}); // drop() does not throw; the outcomes are logged above
  }
}

/** How long a stored response is retried after its first attempt failed. */
const STORE_RETRY_FOR_MS = 10 * 60 * 1000;

/** Runs `attempt` until it succeeds, waiting 0.25 s doubling to 5 s between tries, for `forMs`. */
async function retryStore(attempt: () => Promise<unknown>, forMs: number): Promise<void> {
  const until = Date.now() + forMs;
  for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
    await new Promise((r) => setTimeout(r, wait));
    try {
      await attempt();
      return;
    } catch (err) {
      if (Date.now() + wait > until) throw err;
    }
  }
}

/** Rule 3: failed responses are not stored; the key can be retried. */
export async function releaseIdempotent(db: Db, req: IdempotencyRequest): Promise<void> {
  leasesOf(db).drop(req);
  await deleteRunningIdempotencyClaim(db, req);
}

export async function pruneIdempotencyKeys(db: Db, now: Date): Promise<void> {
  await deleteExpiredIdempotencyRecords(db, now);
}

/**
 * The claims this process holds on one database, renewed together in one statement while any is
 * held. The renewal pushes `locked_until` to the wall clock plus the lease (never back: a claim
 * dated by a clock ahead of it keeps its date). A renewal that fails is tried again a second later;
 * after IDEMPOTENCY_LEASE_MS without one the claim lapses, as it does when the process is gone.
 */
class ClaimLeases {
  private readonly held = new Map<string, IdempotencyRequest>();
  private readonly db: Db;
  private timer: NodeJS.Timeout | undefined;
  /** A renewal is scheduled or running. */
  private active = false;
  private renewing = false;

  constructor(db: Db) {
    this.db = db;
  }

  hold(req: IdempotencyRequest): void {
    this.held.set(claimId(req), req);
    if (!this.active) {
      this.active = true;
      this.schedule(RENEW_EVERY_MS);
    }
  }

  drop(req: IdempotencyRequest): void {
    this.held.delete(claimId(req));
    if (this.held.size === 0 && !this.renewing) {
      clearTimeout(this.timer);
      this.active = false;
    }
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.renewing = true;
      this.renew().then(
        () => this.after(RENEW_EVERY_MS),
        () => this.after(RENEW_RETRY_MS),
      );
    }, ms);
    this.timer.unref();
  }

  private after(ms: number): void {
    this.renewing = false;
    if (this.held.size > 0) this.schedule(ms);
    else this.active = false;
  }

  private async renew(): Promise<void> {
    const claims = [...this.held.values()];
    if (claims.length === 0) return;
    const until = new Date(Date.now() + IDEMPOTENCY_LEASE_MS);
    await renewIdempotencyLeases(this.db, claims, until);
  }
}

const claimId = (req: IdempotencyRequest) => JSON.stringify([req.apiKeyId, req.path, req.key]);
const leases = new WeakMap<Db, ClaimLeases>();
function leasesOf(db: Db): ClaimLeases {
  let l = leases.get(db);
  if (!l) {
    l = new ClaimLeases(db);
    leases.set(db, l);
  }
  return l;
}
