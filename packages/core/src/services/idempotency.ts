import type { Db, Executor, Tx } from '@esign/db';
import {
  deleteExpiredIdempotencyRecords,
  deleteIdempotencyRecordAsRead,
  deleteRunningIdempotencyClaim,
  findIdempotencyRecord,
  insertIdempotencyClaim,
  markIdempotencyClaimCommitted,
  renewIdempotencyLeases,
  storeIdempotentResponse,
} from '@esign/db/queries/idempotency';
import type { Logger } from 'pino';
import { CoreError } from '../errors.ts';

// The Idempotency-Key rules (spec, "Idempotency rules"). A key is claimed (`running`) before its
// request runs; the work's own transaction marks the claim `committed` with what it made
// (commitIdempotentOutcome), so the work and the key's outcome commit together or not at all; the
// answer is stored (`done`) once it is sent. A retry replays the stored answer, or, when the
// process died between the commit and storing it, the answer rebuilt from what the work made: a
// request whose work committed never runs again. A `running` claim whose process died is taken
// over once its lease lapses, which is safe: nothing of it committed, and the old claim can no
// longer commit (its mark needs its own claim id). Leases and expiry use the database's clock.

const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
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

/** A request that holds its key: `claimId` names this claim (a retry's takeover gets another). */
export interface IdempotencyClaim extends IdempotencyRequest {
  claimId: string;
}

/** What an idempotent request's work made, recorded in its transaction. */
export type IdempotentResourceType = 'signature_request' | 'template' | 'checkout' | 'bulk_send';

export interface IdempotentOutcome {
  /** The resource the answer shows (read again to replay it) ... */
  resource: { type: IdempotentResourceType; id: number | string };
  /** ... unless the answer is known inside the transaction: then it is stored as it is. */
  body?: unknown;
}

/** A committed outcome whose answer was never stored: the resource, or the answer itself. */
export interface CommittedOutcome {
  resourceType: IdempotentResourceType;
  resourceId: string;
  body: string | null;
}

export type IdempotencyStart =
  | { kind: 'new'; claim: IdempotencyClaim }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'committed'; claim: IdempotencyClaim; outcome: CommittedOutcome };

/** Rule 1: at most 255 characters. */
function checkIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > 255) {
    throw new CoreError('invalid_parameter', 'Idempotency-Key must be 1 to 255 characters long');
  }
}

/**
 * Claims the key (rules 2, 4, 5). The insert is atomic, so concurrent retries across processes see
 * exactly one `new`; the others get 409 while it runs, and once it is done the stored response, or
 * (`committed`: its work committed but its answer was not stored) what its work made.
 */
export async function beginIdempotent(db: Db, req: IdempotencyRequest): Promise<IdempotencyStart> {
  checkIdempotencyKey(req.key);
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimId = await insertIdempotencyClaim(db, req, {
      requestHash: req.requestHash,
      leaseMs: IDEMPOTENCY_LEASE_MS,
      retentionMs: IDEMPOTENCY_RETENTION_MS,
    });
    if (claimId) {
      const claim = { ...req, claimId };
      leasesOf(db).hold(claim);
      return { kind: 'new', claim };
    }

    const existing = await findIdempotencyRecord(db, req);
    if (!existing) continue; // released between our insert and select: try again
    if (existing.expired || (existing.status === 'running' && existing.lapsed)) {
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
    if (existing.status === 'committed') {
      return {
        kind: 'committed',
        claim: { ...req, claimId: existing.claim_id },
        outcome: {
          resourceType: existing.resource_type as IdempotentResourceType,
          resourceId: existing.resource_id ?? '',
          body: existing.response_body,
        },
      };
    }
    return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' };
  }
  throw new CoreError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is being processed; retry shortly',
  );
}

/**
 * Inside the transaction of the work an Idempotency-Key guards (a no-op without one): marks the
 * key's claim `committed` with what the work made, so both commit together. When a retry took the
 * claim over meanwhile (this process was thought dead), this throws and the work rolls back: the
 * key's request commits once. Call it last in the transaction, so the record's lock is held briefly.
 */
export async function commitIdempotentOutcome(
  tx: Tx,
  claim: IdempotencyClaim | null | undefined,
  outcome: IdempotentOutcome,
): Promise<void> {
  if (!claim) return;
  const marked = await markIdempotencyClaimCommitted(tx, claim, {
    resourceType: outcome.resource.type,
    resourceId: String(outcome.resource.id),
    body: outcome.body === undefined ? null : JSON.stringify(outcome.body),
  });
  if (!marked) {
    throw new CoreError(
      'idempotency_key_in_use',
      'A retry with this Idempotency-Key took this request over while it ran; nothing was changed here. Retry shortly with the same key',
    );
  }
}

/**
 * Rule 2: the first successful response is stored. When the work committed its outcome
 * (commitIdempotentOutcome), a response that cannot be stored costs nothing: a retry replays it
 * from what the work made. Otherwise (a request whose work needed no transaction of its own), the
 * claim stays held (its lease renewed) and storing is retried in the background with back-off for
 * up to STORE_RETRY_FOR_MS, while retries of the key get 409. The caller answers its client at
 * once either way.
 */
export async function completeIdempotent(
  db: Db,
  claim: IdempotencyClaim,
  status: number,
  body: string,
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>,
): Promise<void> {
  const store = () => storeIdempotentResponse(db, claim, { status, body });
  try {
    await store();
    leasesOf(db).drop(claim);
  } catch (err) {
    logger?.warn({ err }, 'idempotent response not stored yet; retrying while the key stays claimed');
    retryStore(store, STORE_RETRY_FOR_MS)
      .then(
        () => logger?.info('idempotent response stored after a retry'),
        (last: unknown) =>
          logger?.error(
            { err: last },
            'idempotent response could not be stored; a retry replays its committed outcome, if any',
          ),
      )
      .finally(() => leasesOf(db).drop(claim))
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

/**
 * Rule 3: failed responses are not stored; the key can be retried. A claim whose work committed
 * (a failure after the commit) is kept: the retry replays what was made.
 */
export async function releaseIdempotent(db: Db, claim: IdempotencyClaim): Promise<void> {
  leasesOf(db).drop(claim);
  await deleteRunningIdempotencyClaim(db, claim);
}

/** Deletes the records older than the retention, by the database's clock. */
export async function pruneIdempotencyKeys(db: Executor): Promise<void> {
  await deleteExpiredIdempotencyRecords(db);
}

/**
 * The claims this process holds on one database, renewed together in one statement while any is
 * held, to the database's time plus the lease. A renewal that fails is tried again a second
 * later; after IDEMPOTENCY_LEASE_MS without one the claim lapses, as it does when the process is
 * gone. Only this process's timers depend on its clock: how long a second is, never what time it is.
 */
class ClaimLeases {
  private readonly held = new Map<string, IdempotencyClaim>();
  private readonly db: Db;
  private timer: NodeJS.Timeout | undefined;
  /** A renewal is scheduled or running. */
  private active = false;
  private renewing = false;

  constructor(db: Db) {
    this.db = db;
  }

  hold(claim: IdempotencyClaim): void {
    this.held.set(claim.claimId, claim);
    if (!this.active) {
      this.active = true;
      this.schedule(RENEW_EVERY_MS);
    }
  }

  drop(claim: IdempotencyClaim): void {
    this.held.delete(claim.claimId);
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
    await renewIdempotencyLeases(this.db, claims, IDEMPOTENCY_LEASE_MS);
  }
}

const leases = new WeakMap<Db, ClaimLeases>();
function leasesOf(db: Db): ClaimLeases {
  let l = leases.get(db);
  if (!l) {
    l = new ClaimLeases(db);
    leases.set(db, l);
  }
  return l;
}
