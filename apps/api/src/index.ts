/** Moved to @esign/http (the shell every process shares); re-exported for existing importers. */
export { createHttpApp, sendError } from '@esign/http';
export { buildOpenApiDocument } from './openapi.ts';
export type { RestApiOptions } from './options.ts';
export { API_BASE, restApi } from './plugin.ts';
export { matchRoute, type RestRoute, restRoutes } from './routes.ts';
