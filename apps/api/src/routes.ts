import type { Meta } from '@esign/core';
import type { AnyRouter } from '@trpc/server';

export interface RestRoute {
  method: string;
  path: string;
  regex: RegExp;
  procedurePath: string;
  meta: Meta;
}

/** The REST route table, read from procedure meta: the only list of endpoints there is. */
export function restRoutes(router: AnyRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const [procedurePath, procedure] of Object.entries(router._def.procedures)) {
    const meta = (procedure as { _def: { meta?: Meta } })._def.meta;
    if (!meta?.openapi) continue;
    const pattern = meta.openapi.path.replace(/\/+$/, '').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
    routes.push({
      method: meta.openapi.method,
      path: meta.openapi.path,
      regex: new RegExp(`^${pattern}/?$`),
      procedurePath,
      meta,
    });
  }
  return routes;
}

export function matchRoute(routes: RestRoute[], method: string, path: string) {
  const candidates = routes.filter((r) => r.regex.test(path));
  return { route: candidates.find((r) => r.method === method) ?? null, pathExists: candidates.length > 0 };
}
