import { type BodyLimit, bodyLimitOfMeta } from '@esign/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RestApiOptions } from './options.ts';
import { procedureHandler } from './procedure-handler.ts';
import { API_BASE } from './request-state.ts';

/** The body limit of the matched endpoint: its procedure's meta (`request.body`), else 1 MB of JSON. */
export function restBodyLimit(request: Pick<FastifyRequest, 'esign'>): BodyLimit {
  return bodyLimitOfMeta(request.esign?.route?.meta);
}

/**
 * Every procedure with OpenAPI meta as a REST route (procedureHandler finds it by method and path),
 * each with its body limit.
 */
export function registerProcedureRoutes(app: FastifyInstance, opts: RestApiOptions, now: () => Date): void {
  const handler = procedureHandler(opts, now);
  app.route({
    method: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
    url: `${API_BASE}/*`,
    config: { bodyLimit: restBodyLimit },
    handler,
  });
}
