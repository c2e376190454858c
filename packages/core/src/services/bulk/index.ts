export {
  BULK_SEND_JOB,
  createBulkSend,
  getBulkSend,
  listBulkSendRows,
  previewBulkSend,
  resumeBulkSend,
} from './batches.ts';

export { bulkSendJob } from './process.ts';
