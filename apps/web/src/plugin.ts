import {
  type Actor,
  appRouter,
  type CallerKind,
  type Config,
  type CoreDeps,
  type CoreError,
  createContext,
  readLinkedFile,
  toCoreError,
} from '@esign/core';
import type { Db } from '@esign/db';
import { authenticateHttp, carriesCredentials } from '@esign/http';
import { fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { billingPages } from './billing/routes.ts';
import { stripeWebhook } from './billing/stripe-webhook.ts';
import { renderHome } from './pages/home.ts';
import { signingPage } from './signing/routes.ts';

/**
 * Largest tRPC request body: signing.complete carries every value of a signer, and a `file`
 * field alone may hold a 10 MB file as base64 (the rest of the server keeps 1 MB).
 */
export const TRPC_BODY_LIMIT = 24 * 1024 * 1024;

/**
 * Who may call /trpc with credentials: API keys today; the dashboard session cookie joins here.
 * A request that carries credentials is authenticated and rate-limited like any other (actor in
 * ctx, RateLimit-* on the reply); if they are refused, actor procedures fail with that error while
 * the signing procedures stay public (their token is their credential).
 */
const TRPC_CALLERS: readonly CallerKind[] = ['api_key'];

export interface WebOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now?: () => Date;
}

/** Pages and the tRPC endpoint the dashboard and the signing page call (operations.md §1, §4). */
export async function webApp(app: FastifyInstance, opts: WebOptions): Promise<void> {
  const now = opts.now ?? (() => new Date());
  const createTrpcContext = async ({ req, res }: { req: FastifyRequest; res: FastifyReply }) => {
    let actor: Actor | null = null;
    let authFailure: CoreError | null = null;
    if (carriesCredentials(req)) {
      const auth = await authenticateHttp(req, res, {
        db: opts.db,
        now,
        perMinute: opts.config.RATE_LIMIT_PER_MINUTE,
        allow: TRPC_CALLERS,
      });
      actor = auth.actor;
      authFailure = auth.error;
    }
    return createContext({
      db: opts.db,
      logger: opts.logger,
      config: opts.config,
      deps: opts.deps,
      actor,
      authFailure,
      source: actor ? 'api' : 'link',
      requestId: String(req.id),
      ip: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
      now,
    });
  };
  // Mounted on our own route (not fastifyTRPCPlugin, which swaps in its own JSON parser) so /trpc
  // bodies go through the shared parser: its limits, its depth check, invalid_json.
  app.all<{ Params: { path: string } }>('/trpc/:path', { bodyLimit: TRPC_BODY_LIMIT }, async (req, res) => {
    await fastifyRequestHandler({
      router: appRouter,
      // Queries may come as POST too (the signing page sends every call so: its token stays out of
      // URLs and logs); GET keeps working for other clients.
      allowMethodOverride: true,
      createContext: createTrpcContext,
      // A 429 (rate_limited, e.g. too many email codes) carries Retry-After like the REST API.
      responseMeta: ({ errors }: { errors: unknown[] }) => {
        const retry = errors
          .map((e) => toCoreError(e).details.retryAfterSeconds)
          .find((s) => s !== undefined);
        return retry !== undefined ? { headers: { 'Retry-After': String(retry) } } : {};
      },
      req,
      res,
      path: req.params.path,
    });
  });
  // Signed, expiring links to documents and page images (no API key needed, cannot be guessed).
  app.get<{ Params: { token: string; name: string } }>('/files/:token/:name', async (request, reply) => {
    try {
      const file = await readLinkedFile(opts.deps, opts.config, request.params.token, now());
      return reply
        .type(file.contentType)
        .header('Cache-Control', 'private, max-age=3600')
        .header('Content-Disposition', `inline; filename="${file.fileName.replace(/[^\w. -]/g, '_')}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(Buffer.from(file.bytes));
    } catch (err) {
      const core = toCoreError(err);
      if (core.code === 'internal_error') request.log.error({ err }, 'file link failed');
      return reply.code(core.status).send({ error: { code: core.code, message: core.message } });
    }
  });
  await app.register(signingPage, { config: opts.config });
  await app.register(billingPages, { ...opts, now });
  await app.register(stripeWebhook, { ...opts, now });
  app.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send(renderHome(opts.config)));
}
