import {
  beginIdempotent,
  completeIdempotent,
  type IdempotencyRequest,
  releaseIdempotent,
  sha256Hex,
  toCoreError,
} from '@esign/core';
import type { Db } from '@esign/db';
import { sendError } from '@esign/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf, type RequestState } from './request-state.ts';

/** Canonical JSON: key order does not change the hash, so equal bodies match. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * For an idempotent route called with an `Idempotency-Key`: claims the key (the request then
 * goes on and `state.idempotency` holds the claim), or answers with the stored response.
 */
export async function claimIdempotencyKey(
  db: Db,
  now: () => Date,
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
    requestHash: sha256Hex(canonical(request.body ?? {})),
  };
  try {
    const start = await beginIdempotent(db, idem, now());
    if (start.kind === 'replay') {
      state.replayed = true;
      return reply
        .code(start.status)
        .header('Idempotent-Replayed', 'true')
        .type('application/json')
        .send(start.body);
    }
    state.idempotency = idem;
  } catch (err) {
    return sendError(reply, toCoreError(err));
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
    );
  } else {
    await releaseIdempotent(db, idem);
  }
}
