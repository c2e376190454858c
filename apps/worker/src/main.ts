import { createRuntime, shutdownOnSignal } from '@esign/core';
import { config } from './env.ts';
import { startBackgroundWorker } from './worker.ts';

const rt = await createRuntime(config, 'worker');
const worker = startBackgroundWorker(rt, { concurrency: config.WORKER_CONCURRENCY });
rt.logger.info('worker started');
shutdownOnSignal(rt, [worker]);
