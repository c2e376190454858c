import {
  type Actor,
  appRouter,
  type CallerKind,
  type Config,
  type CoreDeps,
  type CoreError,
  createContext,
  MAX_DOCUMENT_BYTES,
  readLinkedFile,
  sessionClearCookie,
  sessionSetCookie,
  toCoreError,
} from '@esign/core';
import type { Db } from '@esign/db';
import { authenticateHttp, carriesCredentials } from '@esign/http';
import { fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { billingPages } from './billing/routes.ts';
import { stripeWebhook } from './billing/stripe-webhook.ts';
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

/**
 * Who may call /trpc with credentials: API keys and the dashboard's session cookie (whose changes
 * need the CSRF token and our Origin, checked in core's authenticate). A request that carries credentials is authenticated and rate-limited like any other (actor in
 * ctx, RateLimit-* on the reply); if they are refused, actor procedures fail with that error while
 * the signing procedures stay public (their token is their credential).
 */
const TRPC_CALLERS: readonly CallerKind[] = ['api_key', 'session'];

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
        publicUrl: opts.config.PUBLIC_URL,
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
      // Records made by a signed-in person come from the dashboard (spec: source `invite`).
      source: actor?.kind === 'session' ? 'invite' : actor ? 'api' : 'link',
      requestId: String(req.id),
      ip: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
      now,
      // Sign-in procedures write and clear the session cookie through this.
      web: {
        origin: typeof req.headers.origin === 'string' ? req.headers.origin : null,
        setCookie: (token, expiresAt) =>
          void res.header('set-cookie', sessionSetCookie(opts.config, token, expiresAt)),
        clearCookie: () => void res.header('set-cookie', sessionClearCookie(opts.config)),
      },
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
      // A single failed call answers with its error's status (403 forbidden, 429 rate_limited with
      // Retry-After, ...) rather than tRPC's 500 for any thrown error; batches keep tRPC's own status.
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
      req,
      res,
      path: req.params.path,
    });
  });
  // Signed, expiring links to documents and page images (no API key needed, cannot be guessed).
  app.get<{ Params: { token: string; name: string } }>('/files/:token/:name', async (request, reply) => {
    try {
      const file = await readLinkedFile(opts.deps, opts.config, request.params.token, now());
      // A view of the bytes, not a copy (a sealed document may be 25 MB).
      const body = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
      return reply
        .type(file.contentType)
        .header('Cache-Control', 'private, max-age=3600')
        .header('Content-Disposition', `inline; filename="${file.fileName.replace(/[^\w. -]/g, '_')}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(body);
    } catch (err) {
      const core = toCoreError(err);
      if (core.code === 'internal_error') request.log.error({ err }, 'file link failed');
      if (core.details.retryAfterSeconds !== undefined)
        reply.header('Retry-After', String(core.details.retryAfterSeconds));
      return reply.code(core.status).send({ error: { code: core.code, message: core.message } });
    }
  });
  await app.register(signingPage, { config: opts.config });
  await app.register(billingPages, { ...opts, now });
  await app.register(stripeWebhook, { ...opts, now });
  await app.register(dashboardPages, { config: opts.config });
}
