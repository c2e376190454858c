import { parse } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';
import { MAX_BULK_ROWS, type SpreadsheetLimits, SpreadsheetRefusal } from './spreadsheet-limits.ts';
import { rebuildStored, unpackXmlParts, type ZipPart } from './xlsx-zip.ts';

// Reading a bulk send's file: CSV with csv-parse, XLSX with read-excel-file (both maintained
// parsers). The first row names the columns; every later non-empty row is one request. This runs
// in the spreadsheet thread (spreadsheet-thread.ts), within SpreadsheetLimits: what the workbook
// unpacks to is bounded before read-excel-file sees it (xlsx-zip.ts), and so are the rows and
// cells it would build (read-excel-file fills a row with empty cells up to its last one, so one
// cell at column XFD of 5,000 rows is 82 million cells).

export type Cell = string | number | boolean | Date | null;

export interface Spreadsheet {
  columns: string[];
  /** Data rows (without the header row), each as long as `columns`. */
  rows: Cell[][];
}

const count = (n: number) => n.toLocaleString('en-US');

function kindOf(fileName: string, bytes: Uint8Array): 'csv' | 'xlsx' {
  // XLSX is a ZIP archive: "PK\x03\x04".
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'xlsx';
  if (/\.xlsx$/i.test(fileName)) throw new SpreadsheetRefusal('The file is not a valid XLSX workbook');
  return 'csv';
}

function readCsv(bytes: Buffer, limits: SpreadsheetLimits): Cell[][] {
  let refusal: SpreadsheetRefusal | null = null;
  let records = 0;
  let cells = 0;
  try {
    return parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      on_record: (record: string[]) => {
        records++;
        cells += record.length;
        if (records > limits.rows)
          refusal = new SpreadsheetRefusal(
            `The CSV file has more than ${count(limits.rows)} lines; at most ${count(limits.rows)} are read`,
          );
        else if (cells > limits.cells)
          refusal = new SpreadsheetRefusal(
            `The CSV file has more than ${count(limits.cells)} cells; at most ${count(limits.cells)} are read`,
          );
        if (refusal) throw refusal;
        return record;
      },
    }) as string[][];
  } catch (err) {
    if (refusal) throw refusal;
    throw new SpreadsheetRefusal(`The CSV file cannot be read: ${(err as Error).message}`);
  }
}

/** Column letters (A, Z, AA, XFD) as a number from 1. */
function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

const TAG = /<(?:[A-Za-z_][\w.-]*:)?(row|c)(?=[\s/>])([^>]*)>/g;
const REF = /(?:^|\s)r\s*=\s*["']([A-Za-z]*)(\d+)["']/;

/**
 * The rows and cells a sheet part would become, counted from its `<row>` and `<c>` tags before it
 * is parsed: the highest row, the cells, and the grid up to the last row and column.
 */
function checkGrid(part: ZipPart, limits: SpreadsheetLimits): void {
  const xml = part.data.toString('latin1');
  let rows = 0;
  let cells = 0;
  let lastRow = 0;
  let lastColumn = 0;
  for (const m of xml.matchAll(TAG)) {
    const ref = REF.exec(m[2]!);
    if (m[1] === 'row') {
      rows++;
      lastRow = Math.max(lastRow, ref ? Number(ref[2]) : rows);
    } else {
      cells++;
      if (ref) {
        lastRow = Math.max(lastRow, Number(ref[2]));
        lastColumn = Math.max(lastColumn, columnNumber(ref[1]!));
      }
    }
  }
  if (lastRow > limits.rows)
    throw new SpreadsheetRefusal(
      `The sheet reaches row ${count(lastRow)}; at most ${count(limits.rows)} rows are read`,
    );
  if (cells > limits.cells)
    throw new SpreadsheetRefusal(
      `The sheet has ${count(cells)} cells; at most ${count(limits.cells)} cells are read`,
    );
  if (lastRow * lastColumn > limits.cells)
    throw new SpreadsheetRefusal(
      `The sheet spans ${count(lastRow)} rows × ${count(lastColumn)} columns (${count(lastRow * lastColumn)} cells); at most ${count(limits.cells)} cells are read`,
    );
}

async function readXlsx(bytes: Buffer, limits: SpreadsheetLimits): Promise<Cell[][]> {
  const parts = unpackXmlParts(bytes, limits.inflatedBytes);
  for (const part of parts) checkGrid(part, limits);
  try {
    return (await readSheet(rebuildStored(parts))) as Cell[][];
  } catch (err) {
    throw new SpreadsheetRefusal(`The XLSX file cannot be read: ${(err as Error).message}`);
  }
}

const blank = (c: Cell) => c === null || c === undefined || (typeof c === 'string' && c.trim() === '');

/** Parses the file within `limits`; a SpreadsheetRefusal for an unreadable file, no header, no rows or too many. */
export async function readSpreadsheetBytes(
  bytes: Buffer,
  fileName: string,
  limits: SpreadsheetLimits,
): Promise<Spreadsheet> {
  const all = kindOf(fileName, bytes) === 'xlsx' ? await readXlsx(bytes, limits) : readCsv(bytes, limits);
  const [header, ...body] = all.filter((r) => !r.every(blank));
  if (!header) throw new SpreadsheetRefusal('The file is empty: the first row must name the columns');
  const columns = header.map((c, i) => (blank(c) ? `Column ${i + 1}` : String(c).trim()));
  if (new Set(columns).size !== columns.length)
    throw new SpreadsheetRefusal('Two columns have the same name in the first row');
  if (body.length === 0) throw new SpreadsheetRefusal('The file has a header row but no rows to send');
  if (body.length > MAX_BULK_ROWS)
    throw new SpreadsheetRefusal(
      `The file has ${body.length} rows; at most ${MAX_BULK_ROWS} can be sent at once`,
    );
  return { columns, rows: body.map((r) => columns.map((_, i) => r[i] ?? null)) };
}
