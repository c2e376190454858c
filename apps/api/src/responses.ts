import { releaseIdempotent } from '@esign/core/idempotency';
import type { Db } from '@esign/db';
import { fromFastifyError, sendError } from '@esign/http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { settleIdempotencyKey } from './idempotency.ts';

/** The `onSend` hook: the idempotency record of the response. */
export function finishResponse(db: Db) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    await settleIdempotencyKey(db, request, reply, payload);
    return payload;
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
