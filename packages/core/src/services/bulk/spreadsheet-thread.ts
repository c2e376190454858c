/**
 * The thread that reads one bulk send file (spreadsheet.ts starts it, one per file): unpacking and
 * parsing a workbook is CPU work of up to the time limit that would otherwise hold the thread that
 * answers HTTP (issue 41 item 3: 57 s for a 314 KB XLSX). It runs at a lower CPU priority than
 * the process's other threads, so they are served first on a busy machine, and with its own heap
 * limit. It reads no files and holds no descriptors: ending it at any moment leaves nothing behind.
 *
 * In: `workerData` ({ bytes, fileName, limits }). Out: one message, `{ sheet }` or `{ refused }`.
 */
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { type SpreadsheetLimits, SpreadsheetRefusal } from './spreadsheet-limits.ts';
import { readSpreadsheetBytes, type Spreadsheet } from './spreadsheet-read.ts';

export interface SpreadsheetThreadData {
  bytes: Uint8Array;
  fileName: string;
  limits: SpreadsheetLimits;
}

export type SpreadsheetThreadMessage = { sheet: Spreadsheet } | { refused: string };

/** How much nicer (lower in CPU priority) than the process this thread runs (Linux: per thread). */
const NICENESS = 10;

try {
  setPriority(Math.min(19, getPriority() + NICENESS));
} catch {
  // A platform without per-thread priorities: the thread keeps the process's.
}

const port = parentPort!;
const data = workerData as SpreadsheetThreadData;
const send = (message: SpreadsheetThreadMessage) => port.postMessage(message);
const bytes = Buffer.from(data.bytes.buffer, data.bytes.byteOffset, data.bytes.byteLength);

try {
  send({ sheet: await readSpreadsheetBytes(bytes, data.fileName, data.limits) });
} catch (err) {
  // Anything else is a fault of this code, not of the file: the thread fails and the caller says so.
  if (!(err instanceof SpreadsheetRefusal)) throw err;
  send({ refused: err.message });
}
