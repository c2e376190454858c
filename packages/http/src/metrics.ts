import type { Metrics } from '@esign/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The route pattern the metrics count this request under, when the adapter knows better than the router. */
    metricsRoute: string | null;
  }
}

/** The route label of a request nothing matched (never its URL, which may carry ids and tokens). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Names the route a request is counted under: an adapter that routes by itself behind one
 * wildcard route (REST's `/api/v1/*`) gives the pattern it matched, such as
 * `/api/v1/signature_requests/{id}`. Only ever a pattern: never a value taken from the URL.
 */
export function setMetricsRoute(request: FastifyRequest, pattern: string): void {
  request.metricsRoute = pattern;
}

/** Counts every response and its duration by method, route pattern and status (esign_http_*). */
export function countResponses(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.metricsRoute ?? request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.httpResponse(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
