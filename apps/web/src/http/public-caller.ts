import { type Config, type CoreDeps, createCaller, createContext } from '@esign/core';
import type { Db } from '@esign/db';
import type { Source } from '@esign/domain';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

export interface PublicPageOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now: () => Date;
}

/**
 * A caller of core's procedures for a server-rendered page without an actor (checkout pages, public
 * signing links): the request's id, IP address and user agent, and where records come from.
 */
export function publicCaller(opts: PublicPageOptions, request: FastifyRequest, source: Source) {
  return createCaller(
    createContext({
      db: opts.db,
      logger: opts.logger,
      config: opts.config,
      deps: opts.deps,
      actor: null,
      source,
      requestId: String(request.id),
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      acceptLanguage: request.headers['accept-language'] ?? null,
      now: opts.now,
    }),
  );
}
