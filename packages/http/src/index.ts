export { createHttpApp, type HttpAppOptions, httpPart } from './app.ts';
export {
  authenticateHttp,
  carriesCredentials,
  countMoreCalls,
  credentialsOf,
  type HttpAuthOptions,
} from './auth.ts';
export { envelope, fromFastifyError, sendError } from './errors.ts';
export { jsonBody, MAX_JSON_DEPTH, nestsDeeperThan, parseJsonBody, readBody } from './json-body.ts';
export { MAX_PARSE_THREADS, streamJsonUploads } from './json-stream.ts';
export {
  BODY_LIMITS,
  type BodyLimit,
  BRAND_UPLOAD_LIMIT,
  BULK_UPLOAD_LIMIT,
  bodyLimitOf,
  bodyLimitOfMeta,
  documentPathsOfMeta,
  JSON_LIMIT,
  TEMPLATE_FIELDS_LIMIT,
  TEMPLATE_UPLOAD_LIMIT,
  tooLarge,
  VERIFY_UPLOAD_LIMIT,
} from './limits.ts';
export { setMetricsRoute, UNMATCHED_ROUTE } from './metrics.ts';
export { REDACTED, redactUrl, serializeRequest } from './redact.ts';
