import {
  appRouter,
  authenticateWebRequest,
  type Config,
  type CoreDeps,
  createContext,
  MAX_DOCUMENT_BYTES,
  readLinkedFile,
  sessionClearCookie,
  sessionSetCookie,
  toCoreError,
} from '@esign/core';
import type { Db } from '@esign/db';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { dashboardPages } from './dashboard/routes.ts';
import { signingPage } from './signing/routes.ts';

/**
 * Largest tRPC request body: signing.complete carries every value of a signer (a `file` field alone
 * may hold a 10 MB file as base64), and a dashboard upload one 25 MB document as base64 (the rest
 * of the server keeps 1 MB).
 */
export const TRPC_BODY_LIMIT = Math.max(
  24 * 1024 * 1024,
  Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 1024 * 1024,
);

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
      createContext: async ({ req, res }: { req: FastifyRequest; res: FastifyReply }) => {
        const header = (name: string) => {
          const v = req.headers[name];
          return typeof v === 'string' ? v : undefined;
        };
        // --- Dashboard session (operations.md §5). LEAD: fold into core's shared authenticate function
        // as its "session cookie" case; CSRF/Origin checks for changes live in authenticateWebRequest.
        const { actor, failure } = await authenticateWebRequest(
          opts.db,
          opts.config,
          {
            method: req.method,
            cookie: header('cookie'),
            csrfToken: header('x-csrf-token'),
            origin: header('origin'),
          },
          now(),
        );
        // --- end of session authentication
        return createContext({
          db: opts.db,
          logger: opts.logger,
          config: opts.config,
          deps: opts.deps,
          actor,
          authFailure: failure,
          // Records made by a signed-in person come from the dashboard (spec: source `invite`).
          source: actor ? 'invite' : 'link',
          requestId: String(req.id),
          ip: req.ip,
          userAgent: header('user-agent') ?? null,
          now,
          web: {
            origin: header('origin') ?? null,
            setCookie: (token, expiresAt) =>
              void res.header('set-cookie', sessionSetCookie(opts.config, token, expiresAt)),
            clearCookie: () => void res.header('set-cookie', sessionClearCookie(opts.config)),
          },
        });
      },
      // A single failed call answers with its error's status (403 forbidden, 429 rate_limited, ...)
      // rather than tRPC's 500 for any thrown error; batches keep tRPC's own status.
      responseMeta: ({ errors, paths }: { errors: unknown[]; paths?: readonly string[] }) => {
        if (errors.length !== 1 || (paths?.length ?? 0) !== 1) return {};
        const core = toCoreError(errors[0]);
        const retry = core.details.retryAfterSeconds;
        return { status: core.status, headers: retry !== undefined ? { 'Retry-After': String(retry) } : {} };
      },
      onError: ({ error, req }: { error: unknown; req: FastifyRequest }) => {
        const core = toCoreError(error);
        if (core.code === 'internal_error')
          req.log.error({ err: (error as { cause?: unknown }).cause ?? error }, 'procedure failed');
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
  await app.register(dashboardPages, { config: opts.config });
}
