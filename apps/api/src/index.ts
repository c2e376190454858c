export { sendError, setRateLimitHeaders } from './errors.ts';
export { createHttpApp } from './http.ts';
export { buildOpenApiDocument } from './openapi.ts';
export { API_BASE, type RestApiOptions, restApi } from './plugin.ts';
