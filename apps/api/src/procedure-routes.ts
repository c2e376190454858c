import {
  type BodyLimit,
  BRAND_UPLOAD_LIMIT,
  BULK_UPLOAD_LIMIT,
  JSON_LIMIT,
  TEMPLATE_FIELDS_LIMIT,
  TEMPLATE_UPLOAD_LIMIT,
  VERIFY_UPLOAD_LIMIT,
} from '@esign/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RestApiOptions } from './options.ts';
import { procedureHandler } from './procedure-handler.ts';
import { API_BASE } from './request-state.ts';

/**
 * The body limit of the matched endpoint: documents for POST /templates and /documents/verify,
 * a template's fields for PATCH /templates/{id}, the file of POST /bulk_sends and /bulk_sends/preview.
 */
function restBodyLimit(request: FastifyRequest): BodyLimit {
  const route = request.esign?.route;
  if (route?.method === 'POST' && route.path === '/templates')
    return { bytes: TEMPLATE_UPLOAD_LIMIT, code: 'invalid_request' };
  // A template's fields, up to their maximum, replace the stored ones.
  if (route?.method === 'PATCH' && route.path === '/templates/{id}')
    return { bytes: TEMPLATE_FIELDS_LIMIT, code: 'invalid_request' };
  if (route?.method === 'POST' && route.path === '/documents/verify')
    return { bytes: VERIFY_UPLOAD_LIMIT, code: 'document_too_large' };
  // Issue 44: a brand's logo (1 MB); a larger body is the logo's size error.
  if (
    (route?.method === 'POST' && route.path === '/brands') ||
    (route?.method === 'PATCH' && route.path === '/brands/{id}')
  )
    return {
      bytes: BRAND_UPLOAD_LIMIT,
      code: 'document_too_large',
      message: 'The logo is larger than 1 MB; upload a smaller PNG, JPEG or SVG',
    };
  if (route?.method === 'POST' && (route.path === '/bulk_sends' || route.path === '/bulk_sends/preview'))
    return { bytes: BULK_UPLOAD_LIMIT, code: 'invalid_request' };
  return { bytes: JSON_LIMIT, code: 'invalid_request' };
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
