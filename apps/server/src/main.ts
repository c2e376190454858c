import { createRuntime, LISTEN_HOST, stopOnSignal } from '@esign/core';
import { startBackgroundWorker } from '@esign/worker';
import { buildAllInOneApp } from './app.ts';
import { config } from './env.ts';

// All-in-one: API, MCP, web and worker in one process, on the embedded database by default.
const rt = await createRuntime(config, 'server', { migrate: true });
const app = await buildAllInOneApp(rt);
const worker = startBackgroundWorker(rt);
await app.listen({ port: config.PORT, host: LISTEN_HOST });
rt.logger.info(
  { url: config.PUBLIC_URL, database: rt.embedded ? `embedded (${config.DATA_DIR}/db)` : 'DATABASE_URL' },
  `E-Signature service ready at ${config.PUBLIC_URL} (API ${config.PUBLIC_URL}/api/v1, MCP ${config.PUBLIC_URL}/mcp)`,
);
stopOnSignal(async (signal) => {
  rt.logger.info({ signal }, 'shutting down');
  await app.close();
  await worker.stop();
  await rt.close();
});
