export {
  BULK_SEND_JOB,
  type BulkUpload,
  createBulkSend,
  getBulkSend,
  listBulkSendRows,
  previewBulkSend,
  resumeBulkSend,
} from './batches.ts';
export type { BulkSendDto } from './dto.ts';
export type { BulkMapping } from './mapping.ts';
export { bulkSendJob, processBulkSend } from './process.ts';
export { MAX_BULK_FILE_BYTES, MAX_BULK_ROWS, SPREADSHEET_LIMITS } from './spreadsheet-limits.ts';
