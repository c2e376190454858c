import { parse } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';
import { CoreError } from '../../errors.ts';

// Reading a bulk send's file: CSV with csv-parse, XLSX with read-excel-file (both maintained
// parsers). The first row names the columns; every later non-empty row is one request.

export const MAX_BULK_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_BULK_ROWS = 5_000;

export type Cell = string | number | boolean | Date | null;

export interface Spreadsheet {
  columns: string[];
  /** Data rows (without the header row), each as long as `columns`. */
  rows: Cell[][];
}

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

function kindOf(fileName: string, bytes: Buffer): 'csv' | 'xlsx' {
  // XLSX is a ZIP archive: "PK\x03\x04".
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
  if (/\.xlsx$/i.test(fileName))
    throw new CoreError('invalid_request', 'The file is not a valid XLSX workbook');
  return 'csv';
}

function readCsv(bytes: Buffer): Cell[][] {
  try {
    return parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as string[][];
  } catch (err) {
    throw new CoreError('invalid_request', `The CSV file cannot be read: ${(err as Error).message}`);
  }
}

async function readXlsx(bytes: Buffer): Promise<Cell[][]> {
  try {
    return (await readSheet(bytes)) as Cell[][];
  } catch (err) {
    throw new CoreError('invalid_request', `The XLSX file cannot be read: ${(err as Error).message}`);
  }
}

const blank = (c: Cell) => c === null || c === undefined || (typeof c === 'string' && c.trim() === '');

/** Parses the file; 422 invalid_request for an unreadable file, no header, no rows or too many. */
export async function readSpreadsheet(bytes: Buffer, fileName: string): Promise<Spreadsheet> {
  const all = kindOf(fileName, bytes) === 'xlsx' ? await readXlsx(bytes) : readCsv(bytes);
  const [header, ...body] = all.filter((r) => !r.every(blank));
  if (!header)
    throw new CoreError('invalid_request', 'The file is empty: the first row must name the columns');
  const columns = header.map((c, i) => (blank(c) ? `Column ${i + 1}` : String(c).trim()));
  if (new Set(columns).size !== columns.length)
    throw new CoreError('invalid_request', 'Two columns have the same name in the first row');
  if (body.length === 0)
    throw new CoreError('invalid_request', 'The file has a header row but no rows to send');
  if (body.length > MAX_BULK_ROWS)
    throw new CoreError(
      'invalid_request',
      `The file has ${body.length} rows; at most ${MAX_BULK_ROWS} can be sent at once`,
    );
  return { columns, rows: body.map((r) => columns.map((_, i) => r[i] ?? null)) };
}
