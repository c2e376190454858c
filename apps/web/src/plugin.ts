import { appRouter, type Config, type CoreDeps, createContext } from '@esign/core';
import type { Db } from '@esign/db';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { renderHome } from './pages/home.ts';

export interface WebOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now?: () => Date;
}

/** Pages and the tRPC endpoint the dashboard and the signing page call (operations.md §1, §4). */
export async function webApp(app: FastifyInstance, opts: WebOptions): Promise<void> {
  const now = opts.now ?? (() => new Date());
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({
        req,
      }: {
        req: { id: string; ip: string; headers: Record<string, string | string[] | undefined> };
      }) =>
        createContext({
          db: opts.db,
          logger: opts.logger,
          config: opts.config,
          deps: opts.deps,
          actor: null,
          source: 'link',
          requestId: String(req.id),
          ip: req.ip,
          userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
          now,
        }),
    },
  });
  app.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send(renderHome(opts.config)));
}
