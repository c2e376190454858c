import {
  type Actor,
  appRouter,
  beginIdempotent,
  type CallerKind,
  type Config,
  type CoreDeps,
  CoreError,
  completeIdempotent,
  createContext,
  type IdempotencyRequest,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS,
  releaseIdempotent,
  sha256Hex,
  toCoreError,
} from '@esign/core';
import type { Db } from '@esign/db';
import {
  authenticateHttp,
  type BodyLimit,
  fromFastifyError,
  JSON_LIMIT,
  sendError,
  TEMPLATE_UPLOAD_LIMIT,
  VERIFY_UPLOAD_LIMIT,
} from '@esign/http';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { fastifyTRPCOpenApiPlugin } from 'trpc-to-openapi';
import { apiDocs } from './docs.ts';
import { multipartTemplateBody, multipartVerifyBody } from './multipart.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { matchRoute, type RestRoute, restRoutes } from './routes.ts';

export interface RestApiOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now?: () => Date;
}

export const API_BASE = '/api/v1';

/** Authentication rule 1: API keys (OAuth tokens work only on the MCP endpoint). */
const REST_CALLERS: readonly CallerKind[] = ['api_key'];

interface RequestState {
  route: RestRoute;
  actor: Actor;
  idempotency: IdempotencyRequest | null;
  replayed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    esign: RequestState | null;
  }
}

/** Canonical JSON: key order does not change the hash, so equal bodies match. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function pathOf(request: FastifyRequest): string {
  return new URL(request.url, 'http://x').pathname;
}

/** The body limit of the matched endpoint: documents for POST /templates and /documents/verify. */
function restBodyLimit(request: FastifyRequest): BodyLimit {
  const route = request.esign?.route;
  if (route?.method === 'POST' && route.path === '/templates')
    return { bytes: TEMPLATE_UPLOAD_LIMIT, code: 'invalid_request' };
  if (route?.method === 'POST' && route.path === '/documents/verify')
    return { bytes: VERIFY_UPLOAD_LIMIT, code: 'document_too_large' };
  return { bytes: JSON_LIMIT, code: 'invalid_request' };
}

/** The REST adapter: translates HTTP to procedure calls and core errors to the spec's envelope. */
export async function restApi(app: FastifyInstance, opts: RestApiOptions): Promise<void> {
  const routes = restRoutes(appRouter);
  const metaByProcedure = new Map(routes.map((r) => [r.procedurePath, r.meta]));
  const now = opts.now ?? (() => new Date());
  const openApiDocument = buildOpenApiDocument(opts.config);

  app.decorateRequest('esign', null);
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_DOCUMENT_BYTES, files: MAX_DOCUMENTS + 1 },
  });

  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request);
    if (!path.startsWith(`${API_BASE}/`) || path === `${API_BASE}/openapi.json`) return;
    // PUT is an alias of every PATCH.
    const method = request.method;
    if (method === 'PUT') request.raw.method = 'PATCH';
    // Authenticate before matching: every authenticated response, a 404 too, carries RateLimit-*.
    const auth = await authenticateHttp(request, reply, {
      db: opts.db,
      now,
      perMinute: opts.config.RATE_LIMIT_PER_MINUTE,
      publicUrl: opts.config.PUBLIC_URL,
      allow: REST_CALLERS,
    });
    if (auth.error) return sendError(reply, auth.error);
    const { route } = matchRoute(routes, request.method, path.slice(API_BASE.length) || '/');
    if (!route) return sendError(reply, new CoreError('not_found', `No endpoint matches ${method} ${path}`));
    request.esign = { route, actor: auth.actor, idempotency: null, replayed: false };
  });

  app.addHook('preHandler', async (request, reply) => {
    const state = request.esign;
    if (!state) return;
    if (request.isMultipart()) {
      if (!state.route.meta.openapi?.contentTypes?.includes('multipart/form-data')) {
        return sendError(
          reply,
          new CoreError(
            'invalid_request',
            'multipart/form-data is accepted by POST /templates and POST /documents/verify only; send JSON',
          ),
        );
      }
      try {
        request.body =
          state.route.path === '/documents/verify'
            ? await multipartVerifyBody(request)
            : await multipartTemplateBody(request);
      } catch (err) {
        return sendError(reply, toCoreError(err));
      }
      request.headers['content-type'] = 'application/json';
    }
    // The body is parsed by now (JSON in any spelling: `application/JSON; charset=utf-8`), and
    // bodyless POSTs (cancel, remind, archive) need no Content-Type: trpc-to-openapi wants it plain.
    if (request.method !== 'GET') request.headers['content-type'] = 'application/json';
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
      const start = await beginIdempotent(opts.db, idem, now());
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
  });

  app.addHook('onSend', async (request, reply, payload) => {
    let body = payload;
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      // trpc-to-openapi adds its own keys; clients get exactly { error: { code, message } }.
      try {
        const parsed = JSON.parse(payload) as { error?: unknown; message?: string; data?: { code?: string } };
        if (!parsed.error && parsed.data?.code) {
          body = JSON.stringify({ error: { code: parsed.data.code, message: parsed.message ?? '' } });
        }
      } catch {
        // not JSON: leave it
      }
    }
    const idem = request.esign?.idempotency;
    if (idem && !request.esign?.replayed) {
      if (reply.statusCode >= 200 && reply.statusCode < 300) {
        await completeIdempotent(
          opts.db,
          idem,
          reply.statusCode,
          typeof body === 'string' ? body : JSON.stringify(body),
        );
      } else {
        await releaseIdempotent(opts.db, idem);
      }
    }
    return body;
  });

  app.setErrorHandler((err, request, reply) => {
    const core = fromFastifyError(err as { code?: string; statusCode?: number; message: string });
    if (core.code === 'internal_error') request.log.error({ err }, 'unhandled error');
    if (request.esign?.idempotency) void releaseIdempotent(opts.db, request.esign.idempotency);
    return sendError(reply, core);
  });

  app.get(`${API_BASE}/openapi.json`, async () => openApiDocument);
  await app.register(apiDocs, { document: openApiDocument });

  // trpc-to-openapi's route handler resolves as soon as it called reply.send; with our async onSend
  // hook (storing idempotent responses) still running, Fastify would then send `undefined` again.
  // Waiting for the reply to finish closes that race.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_BASE)) return;
    route.config = { ...route.config, bodyLimit: restBodyLimit };
    const handler = route.handler;
    route.handler = async function (this: unknown, request, reply) {
      await handler.call(this as never, request, reply);
      if (!reply.sent) await reply;
    };
  });
  await app.register(fastifyTRPCOpenApiPlugin, {
    basePath: API_BASE,
    router: appRouter,
    maxBodySize: TEMPLATE_UPLOAD_LIMIT,
    createContext: ({ req }: { req: FastifyRequest }) =>
      createContext({
        db: opts.db,
        logger: opts.logger,
        config: opts.config,
        deps: opts.deps,
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
