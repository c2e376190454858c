import {
  type Actor,
  appRouter,
  type CallerKind,
  CoreError,
  createContext,
  MAX_DOCUMENT_BYTES,
  procedureMeta,
  sessionClearCookie,
  sessionSetCookie,
  toCoreError,
} from '@esign/core';
import { TRPC_MAX_BATCH } from '@esign/domain';
import {
  authenticateHttp,
  type BodyLimit,
  bodyLimitOfMeta,
  carriesCredentials,
  sendError,
} from '@esign/http';
import type { AnyRouter } from '@trpc/server';
import { fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebRouteOptions } from '../options.ts';

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

/**
 * How many procedures one /trpc request runs, read as tRPC reads it: `?batch=1` makes the path a
 * comma-separated list of procedures, anything else is one call.
 */
function callsOf(req: FastifyRequest<{ Params: { path: string } }>): number {
  const batch = new URL(req.url, 'http://trpc.invalid').searchParams.get('batch') === '1';
  return batch ? req.params.path.split(',').length : 1;
}

/** The procedures' context for one /trpc request: who calls (if anyone) and the session cookie's writer. */
function trpcContext(opts: WebRouteOptions) {
  return async ({ req, res }: { req: FastifyRequest<{ Params: { path: string } }>; res: FastifyReply }) => {
    let actor: Actor | null = null;
    let authFailure: CoreError | null = null;
    if (carriesCredentials(req)) {
      // Every call of a batch counts against the caller's limit (issue 29 item 2).
      const auth = await authenticateHttp(req, res, {
        db: opts.db,
        now: opts.now,
        perMinute: opts.config.RATE_LIMIT_PER_MINUTE,
        publicUrl: opts.config.PUBLIC_URL,
        allow: TRPC_CALLERS,
        calls: callsOf(req),
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
      acceptLanguage: req.headers['accept-language'] ?? null,
      now: opts.now,
      // Sign-in procedures write and clear the session cookie through this.
      web: {
        origin: typeof req.headers.origin === 'string' ? req.headers.origin : null,
        setCookie: (token, expiresAt) =>
          void res.header('set-cookie', sessionSetCookie(opts.config, token, expiresAt)),
        clearCookie: () => void res.header('set-cookie', sessionClearCookie(opts.config)),
        cookieHeader: req.headers.cookie ?? null,
        addSetCookie: (value) => void appendSetCookie(res, value),
      },
    });
  };
}

/** One more Set-Cookie header on the reply, keeping any already set. */
function appendSetCookie(res: FastifyReply, value: string): void {
  const prior = res.getHeader('set-cookie');
  const list = prior === undefined ? [] : Array.isArray(prior) ? prior.map(String) : [String(prior)];
  res.header('set-cookie', [...list, value]);
}

/**
 * The per-route rules of /trpc, read from the procedures' meta (`request`; issue 43: no list of
 * procedure names here): the body limit of a call, whose bytes are TRPC_BODY_LIMIT for every
 * procedure and whose error is document_too_large where the one procedure called takes one
 * document; and the address limits of the procedures a request calls.
 */
export function trpcRouteRules(router: AnyRouter) {
  const metas = new Map(procedureMeta(router).map((p) => [p.path, p.meta]));
  return {
    bodyLimit(path: string): BodyLimit {
      return { bytes: TRPC_BODY_LIMIT, code: bodyLimitOfMeta(metas.get(path)).code };
    },
    addressLimits(path: string) {
      return path.split(',').flatMap((p) => {
        const limit = metas.get(p)?.request?.addressLimit;
        return limit ? [limit] : [];
      });
    },
  };
}

/** /trpc/{procedure}: the tRPC endpoint the dashboard and the signing page call. */
export async function trpcEndpoint(app: FastifyInstance, opts: WebRouteOptions): Promise<void> {
  const createTrpcContext = trpcContext(opts);
  const rules = trpcRouteRules(appRouter);
  // Mounted on our own route (not fastifyTRPCPlugin, which swaps in its own JSON parser) so /trpc
  // bodies go through the shared parser: its limits, its depth check, invalid_json.
  // A batch over the cap runs nothing and is not counted: refused before its body is read.
  // A procedure limited per client address (its meta's `request.addressLimit`: the public verify
  // page) is refused past its minute before its file is read, alone or in a batch (`a,b?batch=1`).
  const refuseEarly = async (req: FastifyRequest<{ Params: { path: string } }>, res: FastifyReply) => {
    for (const addressLimit of rules.addressLimits(req.params.path)) {
      const refusal = await addressLimit({ db: opts.db, now: opts.now }, { ip: req.ip });
      if (refusal) return sendError(res, refusal);
    }
    const calls = callsOf(req);
    if (calls <= TRPC_MAX_BATCH) return;
    return sendError(
      res,
      new CoreError(
        'invalid_request',
        `A batch of ${calls} calls is too large: send at most ${TRPC_MAX_BATCH} calls in one request`,
      ),
    );
  };
  const bodyLimit = (req: FastifyRequest) => rules.bodyLimit((req.params as { path?: string }).path ?? '');
  const route = { bodyLimit: TRPC_BODY_LIMIT, onRequest: refuseEarly, config: { bodyLimit } };
  app.all<{ Params: { path: string } }>('/trpc/:path', route, async (req, res) => {
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
}
