import { restApi } from '@esign/api';
import type { Runtime } from '@esign/core';
import { createHttpApp } from '@esign/http';
import { mcpEndpoint } from '@esign/mcp';
import { webApp } from '@esign/web';
import type { FastifyInstance } from 'fastify';

/** Every HTTP surface on one origin: REST, MCP, tRPC and pages (README, "Two commands"). */
export async function buildAllInOneApp(
  rt: Runtime,
  opts: { now?: () => Date } = {},
): Promise<FastifyInstance> {
  const app = createHttpApp({ ...rt, now: opts.now });
  await app.register(restApi, { ...rt, now: opts.now });
  await app.register(mcpEndpoint, { ...rt, now: opts.now });
  await app.register(webApp, { ...rt, now: opts.now });
  return app;
}
