import { appRouter, createContext, toCoreError } from '@esign/core';
import { type BodyLimit, JSON_LIMIT, TEMPLATE_UPLOAD_LIMIT, VERIFY_UPLOAD_LIMIT } from '@esign/http';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { fastifyTRPCOpenApiPlugin } from 'trpc-to-openapi';
import type { RestApiOptions } from './plugin.ts';
import { API_BASE } from './request-state.ts';
import type { RestRoute } from './routes.ts';

/** The body limit of the matched endpoint: documents for POST /templates and /documents/verify. */
function restBodyLimit(request: FastifyRequest): BodyLimit {
  const route = request.esign?.route;
  if (route?.method === 'POST' && route.path === '/templates')
    return { bytes: TEMPLATE_UPLOAD_LIMIT, code: 'invalid_request' };
  if (route?.method === 'POST' && route.path === '/documents/verify')
    return { bytes: VERIFY_UPLOAD_LIMIT, code: 'document_too_large' };
  return { bytes: JSON_LIMIT, code: 'invalid_request' };
}

/**
 * trpc-to-openapi's route handler resolves as soon as it called reply.send; with our async onSend
 * hook (storing idempotent responses) still running, Fastify would then send `undefined` again.
 * Waiting for the reply to finish closes that race. Each route also gets its body limit.
 */
function waitForReply(route: RouteOptions) {
  if (!route.url.startsWith(API_BASE)) return;
  route.config = { ...route.config, bodyLimit: restBodyLimit };
  const handler = route.handler;
  route.handler = async function (this: unknown, request, reply) {
    await handler.call(this as never, request, reply);
    if (!reply.sent) await reply;
  };
}

/** Every procedure with OpenAPI meta as a REST route: its context, success status and errors. */
export async function registerProcedureRoutes(
  app: FastifyInstance,
  routes: RestRoute[],
  opts: RestApiOptions,
  now: () => Date,
): Promise<void> {
  const metaByProcedure = new Map(routes.map((r) => [r.procedurePath, r.meta]));
  app.addHook('onRoute', waitForReply);
  await app.register(fastifyTRPCOpenApiPlugin, {
    basePath: API_BASE,
    router: appRouter,
    maxBodySize: TEMPLATE_UPLOAD_LIMIT,
    createContext: ({ req }: { req: FastifyRequest }) =>
      createContext({
        db: opts.db,
        logger: opts.logger,
        config: opts.config,
        // A multipart request's files on disk, for this request only (services/uploads.ts).
        deps: req.esign?.uploads ? { ...opts.deps, uploads: req.esign.uploads.files } : opts.deps,
        actor: req.esign?.actor ?? null,
        source: 'api',
        requestId: String(req.id),
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
        now,
      }),
    responseMeta: ({ paths, errors }: { paths?: string[]; errors: unknown[] }) => {
      if (errors.length > 0) {
        const core = toCoreError(errors[0]);
        const retry = core.details.retryAfterSeconds;
        return { status: core.status, headers: retry !== undefined ? { 'Retry-After': String(retry) } : {} };
      }
      const meta = paths?.[0] ? metaByProcedure.get(paths[0]) : undefined;
      return { status: meta?.successStatus ?? 200, headers: {} };
    },
    onError: ({ error, req }: { error: unknown; req: FastifyRequest }) => {
      const core = toCoreError(error);
      if (core.code === 'internal_error')
        req.log.error({ err: (error as { cause?: unknown }).cause ?? error }, 'procedure failed');
    },
  } as never);
}
