import type { Config, CoreDeps } from '@esign/core';
import type { Db } from '@esign/db';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { embedPages } from './embed/routes.ts';
import { linkPages } from './links/routes.ts';

/** The pages of the `link` and `embed` sources (docs/sending.md); bulk sends live in the dashboard. */
export async function sendSourcePages(
  app: FastifyInstance,
  opts: { db: Db; config: Config; logger: Logger; deps: CoreDeps; now: () => Date },
): Promise<void> {
  await app.register(linkPages, opts);
  await app.register(embedPages, opts);
}
