export { startBackgroundWorker } from './worker.ts';
