import { isIP } from 'node:net';
import { CALLER_KINDS, type Config, CoreError, type Metrics, type StoppablePart } from '@esign/core';
import { type Db, migrationsApplied } from '@esign/db';
import { pingDatabase } from '@esign/db/queries/health';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { authenticateHttp, carriesCredentials } from './auth.ts';
import { fromFastifyError, sendError } from './errors.ts';
import { denyFramingByDefault } from './framing.ts';
import { registerJsonParser } from './json-body.ts';
import { JSON_LIMIT } from './limits.ts';
import { countResponses } from './metrics.ts';
import { serializeRequest } from './redact.ts';

export interface HttpAppOptions {
  db: Db;
  logger: Logger;
  config: Config;
  now?: () => Date;
  /** The process's metrics: every response is counted by route pattern and status (unset: not counted). */
  metrics?: Metrics;
}

/**
 * The Fastify shell every process serves from: health and readiness, request ids, the JSON body
 * parser and its limits, the error envelope for whatever Fastify itself refuses, JSON 404s,
 * request logs whose URLs carry no signing token, and the HTTP metrics.
 */
export function createHttpApp(opts: HttpAppOptions): FastifyInstance {
  const now = opts.now ?? (() => new Date());
  const draining = { on: false };
  const app = Fastify({
    loggerInstance: opts.logger.child({}, { serializers: { req: serializeRequest } }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
    },
    requestIdHeader: false,
    // Whose X-Forwarded-For makes request.ip (README, TRUST_PROXY): unset, nobody's, so a client
    // cannot choose the address the per-address limits and the audit trail see.
    trustProxy: trustProxyOf(opts.config.TRUST_PROXY),
    bodyLimit: JSON_LIMIT,
    // Signed file links carry their payload in the path.
    routerOptions: { maxParamLength: 2048 },
    // Refusals of the router itself (a path that is not valid percent-encoding) get the envelope.
    frameworkErrors: (err, request, reply) => {
      const core =
        err.code === 'FST_ERR_BAD_URL'
          ? new CoreError('not_found', `No endpoint matches ${request.method} ${request.url.split('?')[0]}`)
          : fromFastifyError(err);
      sendError(reply, core);
    },
  }) as unknown as FastifyInstance;
  app.decorateRequest('actor', null);
  app.decorateRequest('metricsRoute', null);
  if (opts.metrics) countResponses(app, opts.metrics);
  app.removeAllContentTypeParsers();
  registerJsonParser(app);
  app.setErrorHandler((err, request, reply) => {
    const core = fromFastifyError(err as { code?: string; statusCode?: number; message: string });
    if (core.code === 'internal_error') request.log.error({ err }, 'unhandled error');
    return sendError(reply, core);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    // Stopping: every response closes its connection, so no client sends another request on it.
    if (draining.on) reply.header('Connection', 'close');
  });
  denyFramingByDefault(app);
  drains.set(app, draining);
  app.get('/healthz', async () => ({ status: 'ok' }));
  const readiness = readinessProbe(opts.db);
  app.get('/readyz', async (_req, reply) => {
    if (draining.on) return reply.code(503).send({ status: 'shutting down' });
    const status = await readiness();
    return status === 'ready' ? { status } : reply.code(503).send({ status });
  });
  app.setNotFoundHandler(async (request, reply) => {
    // An authenticated request is counted and carries RateLimit-* even when nothing matches.
    if (carriesCredentials(request)) {
      const auth = await authenticateHttp(request, reply, {
        db: opts.db,
        now,
        perMinute: opts.config.RATE_LIMIT_PER_MINUTE,
        publicUrl: opts.config.PUBLIC_URL,
        allow: CALLER_KINDS,
      });
      if (auth.error?.code === 'rate_limited') return sendError(reply, auth.error);
    }
    return sendError(
      reply,
      new CoreError('not_found', `No endpoint matches ${request.method} ${request.url.split('?')[0]}`),
    );
  });
  return app;
}

/** Longest /readyz waits for the database before it answers 503 (a load balancer's check is short). */
const READY_WITHIN_MS = 500;

/**
 * The database half of /readyz: reachable (one round trip) and migrated, answered within
 * READY_WITHIN_MS. A frozen or unreachable database is `503` within that time, whatever the
 * statement timeout; the probes of a burst of checks share one query, so checks never take the
 * pool's connections from requests.
 */
function readinessProbe(db: Db): () => Promise<string> {
  let running: Promise<string> | null = null;
  const probe = async () => {
    await pingDatabase(db);
    return (await migrationsApplied(db)) ? 'ready' : 'migrations pending';
  };
  return async () => {
    running ??= probe()
      .catch(() => 'database unreachable')
      .finally(() => {
        running = null;
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve('database not answering'), READY_WITHIN_MS);
    });
    try {
      return await Promise.race([running, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * TRUST_PROXY as Fastify takes it: a hop count becomes the function Fastify makes of a number
 * (trust the nearest `hops` addresses), which its typings do not accept as a number.
 */
function trustProxyOf(
  setting: Config['TRUST_PROXY'],
): string[] | boolean | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return Array.isArray(setting) ? setting.flatMap(wholeRangeAsHalves) : (setting ?? false);
}

/**
 * A CIDR range of prefix length 0 (`0.0.0.0/0`, `::/0`: every address, as when the proxies'
 * addresses are not known in advance) is valid, but Fastify's proxy-addr refuses it: the same
 * addresses as its two halves, which it takes.
 */
function wholeRangeAsHalves(entry: string): string[] {
  const [address = '', prefix] = entry.split('/');
  if (prefix === undefined || Number(prefix) !== 0) return [entry];
  return isIP(address) === 4 ? ['0.0.0.0/1', '128.0.0.0/1'] : ['::/1', '8000::/1'];
}

const drains = new WeakMap<FastifyInstance, { on: boolean }>();

/**
 * The HTTP server as a part of the process's shutdown (core's shutdownOnSignal): it drains first
 * (/readyz answers 503 and each response closes its connection, while requests are still served),
 * then stops listening and waits for the requests in flight; past the deadline it closes the
 * connections still open.
 */
export function httpPart(app: FastifyInstance): StoppablePart {
  return {
    drain: () => {
      const d = drains.get(app);
      if (d) d.on = true;
    },
    stop: () => app.close(),
    force: () => app.server.closeAllConnections(),
  };
}
