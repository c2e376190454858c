import { createHash, type Hash } from 'node:crypto';
import { toCoreError } from '@esign/core';
import {
  beginIdempotent,
  completeIdempotent,
  type IdempotencyRequest,
  releaseIdempotent,
} from '@esign/core/idempotency';
import type { Db } from '@esign/db';
import { sendError } from '@esign/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf, type RequestState } from './request-state.ts';

/** Base64 (and a data: URI prefix): JSON.stringify escapes nothing in it, so it is hashed as it is. */
const PLAIN_STRING = /^[\w+/=:;,.-]*$/;

/**
 * Hashes canonical JSON (key order does not change the hash, so equal bodies match) piece by
 * piece: the body's 33 MB base64 documents are fed to the hash as they are, never joined into one
 * more string the size of the body (issue 18).
 */
function hashCanonical(value: unknown, hash: Hash): void {
  if (Array.isArray(value)) {
    hash.update('[');
    value.forEach((v, i) => {
      if (i > 0) hash.update(',');
      hashCanonical(v, hash);
    });
    hash.update(']');
  } else if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    hash.update('{');
    entries.forEach(([k, v], i) => {
      hash.update(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
      hashCanonical(v, hash);
    });
    hash.update('}');
  } else if (typeof value === 'string' && value.length > 4096 && PLAIN_STRING.test(value)) {
    hash.update('"').update(value).update('"');
  } else hash.update(JSON.stringify(value) ?? 'null');
}

/** SHA-256 (hex) of the body's canonical JSON. */
export function canonicalBodyHash(body: unknown): string {
  const hash = createHash('sha256');
  hashCanonical(body, hash);
  return hash.digest('hex');
}

/**
 * For an idempotent route called with an `Idempotency-Key`: claims the key (the request then
 * goes on and `state.idempotency` holds the claim), or answers with the stored response. A key
 * whose work committed without a stored answer goes on with `state.committed` set: the handler
 * answers from what the work made (replayCommittedOutcome) and never runs the procedure again.
 */
export async function claimIdempotencyKey(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  state: RequestState,
) {
  const header = request.headers['idempotency-key'];
  if (!state.route.meta.idempotent || header === undefined) return;
  const key = Array.isArray(header) ? header.join(',') : header;
  const idem: IdempotencyRequest = {
    apiKeyId: state.actor.apiKeyId!,
    path: pathOf(request),
    key,
    requestHash: canonicalBodyHash(request.body ?? {}),
  };
  try {
    const start = await beginIdempotent(db, idem);
    if (start.kind === 'replay') {
      state.replayed = true;
      return reply
        .code(start.status)
        .header('Idempotent-Replayed', 'true')
        .type('application/json')
        .send(start.body);
    }
    state.idempotency = start.claim;
    if (start.kind === 'committed') state.committed = start.outcome;
  } catch (err) {
    const error = toCoreError(err);
    // A 500 here is ours (the database refused the claim): logged with the request's id (the
    // request logger carries it); the key and the body are not logged.
    if (error.code === 'internal_error') request.log.error({ err }, 'idempotency key not claimed');
    return sendError(reply, error);
  }
}

/** Stores a 2xx response under the claimed key, or releases the key so a retry runs again. */
export async function settleIdempotencyKey(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
): Promise<void> {
  const idem = request.esign?.idempotency;
  if (!idem || request.esign?.replayed) return;
  if (reply.statusCode >= 200 && reply.statusCode < 300) {
    await completeIdempotent(
      db,
      idem,
      reply.statusCode,
      typeof body === 'string' ? body : JSON.stringify(body),
      request.log,
    );
  } else {
    // The answer stands whatever happens here: a release that fails leaves the key to its lease.
    await releaseIdempotent(db, idem).catch((err) =>
      request.log.warn({ err }, 'idempotency key not released; its lease frees it'),
    );
  }
}
