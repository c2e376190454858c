/**
 * The bounds of reading a bulk send's file (issue 41 item 3; docs/sending.md). A 314 KB workbook
 * once held the HTTP process for 57 s: now the file is read in a thread of its own
 * (spreadsheet-thread.ts) within these bounds, and a file past one is `422 invalid_request`
 * naming it.
 */

/** The uploaded file (CSV or XLSX), decoded from base64. */
export const MAX_BULK_FILE_BYTES = 5 * 1024 * 1024;
/** Rows that become requests (after the header row; empty rows are skipped). */
export const MAX_BULK_ROWS = 5_000;

export interface SpreadsheetLimits {
  /** What an XLSX file's XML parts may inflate to, together. */
  inflatedBytes: number;
  /** Rows read: the highest row number of a sheet, or the records of a CSV file, empty ones included. */
  rows: number;
  /** Cells read: a sheet's rows × columns up to its last cell, or a CSV file's fields. */
  cells: number;
  /** Time for the whole read, in the thread. */
  timeoutMs: number;
  /** Heap of the thread that reads. */
  memoryMb: number;
}

export const SPREADSHEET_LIMITS: SpreadsheetLimits = {
  inflatedBytes: 32 * 1024 * 1024,
  rows: 100_000,
  cells: 1_000_000,
  timeoutMs: 20_000,
  memoryMb: 256,
};

/** A file past one of the bounds, or unreadable: its message is the answer's (422 invalid_request). */
export class SpreadsheetRefusal extends Error {
  override readonly name = 'SpreadsheetRefusal';
}
