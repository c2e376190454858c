import { CoreError, callProcedure, createContext, toCoreError } from '@esign/core';
import { replayCommittedOutcome } from '@esign/core/idempotency';
import { sendError } from '@esign/http';
import { TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RestApiOptions } from './options.ts';
import { restInput } from './rest-input.ts';

/**
 * A Host header that makes no URL (`a b`, `x:99999`) is refused, as the API always has (RFC 9112
 * wants such requests refused); a request without one (HTTP/1.0) is taken as for `localhost`.
 */
function badHost(request: FastifyRequest): CoreError | null {
  const host = request.headers.host ?? request.headers[':authority'] ?? 'localhost';
  return URL.canParse(`http://${host}`) ? null : new CoreError('invalid_parameter', 'Invalid URL');
}

/**
 * The REST route handler: calls the procedure of the route `authenticateRoute` matched (routes.ts,
 * the one table) through tRPC's `createCaller`, with the input rest-input.ts builds from the
 * request. The result goes out as JSON with the route's success status; an error as the spec's
 * envelope, straight from the `CoreError`. Per request it does only that: no Fetch `Request`, no
 * second route lookup, no schema work (bench/README.md, "GET /api/v1/templates").
 */
export function procedureHandler(opts: RestApiOptions, now: () => Date) {
  const run = async (request: FastifyRequest, reply: FastifyReply) => {
    const state = request.esign;
    // Set by the onRequest hook for every path under the API base that it lets through.
    if (!state) return sendError(reply, new CoreError('not_found', `No endpoint matches ${request.url}`));
    const { route } = state;
    const hostError = badHost(request);
    if (hostError) return sendError(reply, hostError);
    try {
      const ctx = createContext({
        db: opts.db,
        logger: opts.logger,
        config: opts.config,
        // A multipart request's files on disk, for this request only (services/uploads.ts).
        deps: state.uploads ? { ...opts.deps, uploads: state.uploads.files } : opts.deps,
        actor: state.actor,
        source: 'api',
        requestId: String(request.id),
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        now,
        idempotency: state.idempotency,
      });
      // This key's work committed, its answer was never stored: the answer from what it made.
      const body = state.committed
        ? await replayCommittedOutcome(ctx, state.committed)
        : JSON.stringify(
            await callProcedure(ctx, route.procedurePath, restInput(route.input, request, state.params)),
          );
      reply.code(route.meta.successStatus ?? 200).header('Content-Type', 'application/json');
      if (state.committed) reply.header('Idempotent-Replayed', 'true');
      return reply.send(body);
    } catch (err) {
      const error = toCoreError(err);
      if (error.code === 'internal_error') {
        request.log.error({ err: err instanceof TRPCError ? (err.cause ?? err) : err }, 'procedure failed');
      }
      return sendError(reply, error);
    }
  };
  // Not an async handler: Fastify would send again what it resolves to while our async onSend hook
  // (storing idempotent responses) still runs; `run` sends every outcome itself.
  return (request: FastifyRequest, reply: FastifyReply): void => {
    run(request, reply).catch((err: unknown) => reply.send(err));
  };
}
