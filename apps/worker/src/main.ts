import { createRuntime, LISTEN_HOST, shutdownOnSignal } from '@esign/core';
import { createHttpApp, httpPart } from '@esign/http';
import { config } from './env.ts';
import { startBackgroundWorker } from './worker.ts';

// Background worker process (scaled deployments); any number of them. It serves only /healthz
// and /readyz (on PORT, like every process: a process manager or an orchestrator checks it there).
const rt = await createRuntime(config, 'worker');
// Listening first: a port in use stops the process before it claims any job.
const health = createHttpApp(rt);
await health.listen({ port: config.PORT, host: LISTEN_HOST });
const worker = startBackgroundWorker(rt, { concurrency: config.WORKER_CONCURRENCY });
rt.logger.info({ port: config.PORT }, 'worker started');
shutdownOnSignal(rt, [httpPart(health), worker]);
