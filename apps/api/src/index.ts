export { buildOpenApiDocument } from './openapi.ts';
export { API_BASE, type RestApiOptions, restApi } from './plugin.ts';
export { matchRoute, type RestRoute, restRoutes } from './routes.ts';
