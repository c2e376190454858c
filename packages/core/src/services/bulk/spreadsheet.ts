import { Worker } from 'node:worker_threads';
import { createFairScheduler, DocumentPoolBusyError } from '@esign/pdf/pool';
import { CoreError } from '../../errors.ts';
import { poolBusy } from '../documents-input.ts';
import { MAX_BULK_FILE_BYTES, SPREADSHEET_LIMITS, type SpreadsheetLimits } from './spreadsheet-limits.ts';
import type { Spreadsheet } from './spreadsheet-read.ts';
import type { SpreadsheetThreadData, SpreadsheetThreadMessage } from './spreadsheet-thread.ts';

/** The file's bytes from base64 (a `data:` prefix is allowed). */
export function decodeFile(file: string): Buffer {
  const base64 = file.replace(/^data:[^,]*,/, '').replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length === 0)
    throw new CoreError('invalid_parameter', 'file must be the spreadsheet encoded as base64');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_BULK_FILE_BYTES)
    throw new CoreError('invalid_request', `The file is larger than ${MAX_BULK_FILE_BYTES / 1024 / 1024} MB`);
  return bytes;
}

/**
 * Files read at once by the process, and per account; a few more may wait (beyond that:
 * `429 rate_limited`). Each read is one thread of at most SPREADSHEET_LIMITS.memoryMb of heap,
 * so what reading costs the process is bounded whatever the load, and one account's files leave
 * the other slot to everyone else.
 */
const scheduler = createFairScheduler(() => ({ size: 2, perKey: 1, maxQueued: 50, maxQueuedPerKey: 3 }));

const refused = (message: string) => new CoreError('invalid_request', message);

function readInThread(bytes: Buffer, fileName: string, limits: SpreadsheetLimits): Promise<Spreadsheet> {
  const data: SpreadsheetThreadData = { bytes, fileName, limits };
  const worker = new Worker(new URL('./spreadsheet-thread.ts', import.meta.url), {
    workerData: data,
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 16 },
  });
  return new Promise<Spreadsheet>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, sheet?: Spreadsheet) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(sheet!);
      // The thread holds no files: ending it at once is safe. (terminate does not reject.)
      worker.terminate().catch(() => {});
    };
    const timer = setTimeout(
      () =>
        finish(
          refused(
            `The file took longer than ${limits.timeoutMs / 1000} s to read; a bulk send's file must be read within that`,
          ),
        ),
      limits.timeoutMs,
    );
    worker.on('message', (m: SpreadsheetThreadMessage) =>
      'sheet' in m ? finish(null, m.sheet) : finish(refused(m.refused)),
    );
    worker.on('error', (err: NodeJS.ErrnoException) =>
      finish(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? refused(
              `The file needs more than ${limits.memoryMb} MB of memory to read; a bulk send's file must be read within that`,
            )
          : new Error('The spreadsheet thread failed', { cause: err }),
      ),
    );
    worker.once('exit', () => finish(new Error('The spreadsheet thread ended without an answer')));
  });
}

/**
 * Parses the file in a thread of its own, as `accountId`'s work, within `limits`: 422
 * invalid_request for an unreadable file, a file past a bound (naming it), no header, no rows or
 * too many; 429 rate_limited when too many files wait.
 */
export async function readSpreadsheet(
  file: { bytes: Buffer; fileName: string },
  accountId: number,
  limits: SpreadsheetLimits = SPREADSHEET_LIMITS,
): Promise<Spreadsheet> {
  const { bytes, fileName } = file;
  let release: () => void;
  try {
    release = await scheduler.acquire(String(accountId));
  } catch (err) {
    if (err instanceof DocumentPoolBusyError) throw poolBusy(err, 'The bulk send file');
    throw err;
  }
  try {
    return await readInThread(bytes, fileName, limits);
  } finally {
    release();
  }
}
