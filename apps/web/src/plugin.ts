import {
  appRouter,
  type Config,
  type CoreDeps,
  createContext,
  readLinkedFile,
  toCoreError,
} from '@esign/core';
import type { Db } from '@esign/db';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
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
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/trpc/')) route.bodyLimit = TRPC_BODY_LIMIT;
  });
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      // Queries may come as POST too (the signing page sends every call so: its token stays out of
      // URLs and logs); GET keeps working for other clients.
      allowMethodOverride: true,
      createContext: ({
        req,
      }: {
        req: { id: string; ip: string; headers: Record<string, string | string[] | undefined> };
      }) =>
        createContext({
          db: opts.db,
          logger: opts.logger,
          config: opts.config,
          deps: opts.deps,
          actor: null,
          source: 'link',
          requestId: String(req.id),
          ip: req.ip,
          userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
          now,
        }),
      // A 429 (rate_limited, e.g. too many email codes) carries Retry-After like the REST API.
      responseMeta: ({ errors }: { errors: unknown[] }) => {
        const retry = errors
          .map((e) => toCoreError(e).details.retryAfterSeconds)
          .find((s) => s !== undefined);
        return retry !== undefined ? { headers: { 'Retry-After': String(retry) } } : {};
      },
    },
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
