import { type CallerKind, type Config, CoreError } from '@esign/core';
import type { Db } from '@esign/db';
import { authenticateHttp, sendError, setMetricsRoute, UNMATCHED_ROUTE } from '@esign/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE, pathOf } from './request-state.ts';
import { matchRoute, type RestRoute } from './routes.ts';

/** Authentication rule 1: API keys (OAuth tokens work only on the MCP endpoint). */
const REST_CALLERS: readonly CallerKind[] = ['api_key'];

/**
 * The `onRequest` hook: authenticates every call under the API base (the OpenAPI document is
 * public), then matches it to a route and records both on `request.esign`.
 */
export function authenticateRoute(routes: RestRoute[], opts: { db: Db; config: Config; now: () => Date }) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request);
    if (!path.startsWith(`${API_BASE}/`) || path === `${API_BASE}/openapi.json`) return;
    // PUT is an alias of every PATCH.
    const method = request.method;
    if (method === 'PUT') request.raw.method = 'PATCH';
    const { route, params } = matchRoute(routes, request.method, path.slice(API_BASE.length) || '/');
    // Counted under the endpoint's pattern even when refused before it runs (a 401, a 429), and
    // under `unmatched` when no endpoint matches: never under the wildcard `/api/v1/*` (issue 41 item 7).
    setMetricsRoute(request, route ? `${API_BASE}${route.path}` : UNMATCHED_ROUTE);
    // Authenticate before answering a match: every authenticated response, a 404 too, carries RateLimit-*.
    const auth = await authenticateHttp(request, reply, {
      db: opts.db,
      now: opts.now,
      perMinute: opts.config.RATE_LIMIT_PER_MINUTE,
      publicUrl: opts.config.PUBLIC_URL,
      allow: REST_CALLERS,
    });
    if (auth.error) return sendError(reply, auth.error);
    if (!route) return sendError(reply, new CoreError('not_found', `No endpoint matches ${method} ${path}`));
    request.esign = {
      route,
      params,
      actor: auth.actor,
      idempotency: null,
      committed: null,
      replayed: false,
      uploads: null,
    };
  };
}
