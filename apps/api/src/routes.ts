import { type Meta, procedureMeta } from '@esign/core';
import type { AnyRouter } from '@trpc/server';
import { type InputPlan, inputPlan } from './rest-input.ts';

export interface RestRoute {
  method: string;
  path: string;
  regex: RegExp;
  procedurePath: string;
  meta: Meta;
  /** How the procedure's input is built from a request (rest-input.ts), worked out once. */
  input: InputPlan;
}

/**
 * The REST route table, read from procedure meta: the only list of endpoints there is. It both
 * authenticates (authenticate-route.ts) and dispatches (procedure-handler.ts) every request.
 */
export function restRoutes(router: AnyRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const { path: procedurePath, meta, input } of procedureMeta(router)) {
    if (!meta.openapi) continue;
    const pattern = meta.openapi.path.replace(/\/+$/, '').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
    routes.push({
      method: meta.openapi.method,
      path: meta.openapi.path,
      regex: new RegExp(`^${pattern}/?$`),
      procedurePath,
      meta,
      input: inputPlan(input),
    });
  }
  return routes;
}

/** The route for a method and path (after the API base), with its path parameters (still percent-encoded). */
export function matchRoute(routes: RestRoute[], method: string, path: string) {
  let pathExists = false;
  for (const route of routes) {
    const match = route.regex.exec(path);
    if (!match) continue;
    pathExists = true;
    if (route.method === method) return { route, params: { ...match.groups }, pathExists };
  }
  return { route: null, params: {}, pathExists };
}
