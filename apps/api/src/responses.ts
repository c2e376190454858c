import { releaseIdempotent } from '@esign/core';
import type { Db } from '@esign/db';
import { fromFastifyError, sendError } from '@esign/http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { settleIdempotencyKey } from './idempotency.ts';

/** trpc-to-openapi adds its own keys to an error; clients get exactly `{ error: { code, message } }`. */
function errorEnvelope(payload: unknown): unknown {
  if (typeof payload !== 'string') return payload;
  try {
    const parsed = JSON.parse(payload) as { error?: unknown; message?: string; data?: { code?: string } };
    if (!parsed.error && parsed.data?.code) {
      return JSON.stringify({ error: { code: parsed.data.code, message: parsed.message ?? '' } });
    }
  } catch {
    // not JSON: leave it
  }
  return payload;
}

/** The `onSend` hook: the error envelope, then the idempotency record of the response. */
export function finishResponse(db: Db) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const body = reply.statusCode >= 400 ? errorEnvelope(payload) : payload;
    await settleIdempotencyKey(db, request, reply, body);
    return body;
  };
}

/** Errors thrown outside a procedure (body parsing, hooks): the envelope, and the key released. */
export function restErrorHandler(db: Db) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const core = fromFastifyError(err as { code?: string; statusCode?: number; message: string });
    if (core.code === 'internal_error') request.log.error({ err }, 'unhandled error');
    // A release that fails (the database is down) leaves the claim to its lease, which frees it
    // within seconds once this process stops renewing it; the client's retry then runs again.
    if (request.esign?.idempotency)
      releaseIdempotent(db, request.esign.idempotency).catch((err) =>
        request.log.warn({ err }, 'idempotency key not released; its lease frees it'),
      );
    return sendError(reply, core);
  };
}
