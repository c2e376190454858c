import { createRuntime, LISTEN_HOST, shutdownOnSignal } from '@esign/core';
import { httpPart } from '@esign/http';
import { loadWebBuildOrExit } from '@esign/web';
import { startBackgroundWorker } from '@esign/worker';
import { buildAllInOneApp } from './app.ts';
import { config } from './env.ts';

// All-in-one: API, MCP, web and worker in one process, on the embedded database by default.
// The dashboard and signing page `pnpm build` made (`npm start` runs it); without them, exit now
// naming that command, before the database starts.
await loadWebBuildOrExit();
const rt = await createRuntime(config, 'server', { migrate: true });
const app = await buildAllInOneApp(rt);
const worker = startBackgroundWorker(rt);
await app.listen({ port: config.PORT, host: LISTEN_HOST });
rt.logger.info(
  { url: config.PUBLIC_URL, database: rt.embedded ? `embedded (${config.DATA_DIR}/db)` : 'DATABASE_URL' },
  `E-Signature service ready at ${config.PUBLIC_URL} (API ${config.PUBLIC_URL}/api/v1, MCP ${config.PUBLIC_URL}/mcp)`,
);
shutdownOnSignal(rt, [httpPart(app), worker]);
