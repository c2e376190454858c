import { constants, crc32, deflateRawSync } from 'node:zlib';

// Workbooks built at test time (issue 41 item 3): a minimal valid XLSX around a sheet's XML, and
// bombs: a part that inflates to gigabytes (built in milliseconds: one compressed MiB repeated),
// and sheets whose few bytes become millions of cells.

const MiB = 1024 * 1024;

interface Part {
  name: string;
  /** Raw deflate data, or the bytes to deflate. */
  deflated: Buffer;
  size: number;
  crc: number;
}

const part = (name: string, content: string | Buffer): Part => {
  const data = Buffer.from(content);
  return { name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
};

/** A ZIP archive of deflated parts; `declare` overrides the uncompressed size written for a part. */
function zip(parts: Part[], declare: (p: Part) => number = (p) => p.size): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const size = Math.min(declare(p), 0xfffffffe);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(p.crc, 14);
    local.writeUInt32LE(p.deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(p.crc, 16);
    central.writeUInt32LE(p.deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, p.deflated);
    centrals.push(central, name);
    offset += 30 + name.length + p.deflated.length;
  }
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(parts.length, 8);
  eocd.writeUInt16LE(parts.length, 10);
  eocd.writeUInt32LE(
    centrals.reduce((n, b) => n + b.length, 0),
    12,
  );
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, eocd]);
}

const frame = [
  part(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  ),
  part(
    'xl/workbook.xml',
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
  ),
  part(
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  ),
];

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** An inline-string cell. */
export const cell = (ref: string, value: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;

/** A workbook of one sheet whose `<sheetData>` holds `rows` (XML), deflated. */
export function workbook(rows: string): Buffer {
  return zip([...frame, part('xl/worksheets/sheet1.xml', SHEET_HEAD + rows + SHEET_TAIL)]);
}

/**
 * A workbook of about `fileBytes` whose sheet inflates to GiBs: a header row, then one compressed
 * MiB of whitespace repeated (each piece a full-flushed deflate block, so they chain). Its central
 * directory declares the true size, or (`lie`) the size of the header alone.
 */
export function inflationBomb(
  fileBytes: number,
  { lie = false } = {},
): { file: Buffer; inflatedBytes: number } {
  const head = Buffer.from(
    `${SHEET_HEAD}<row r="1">${cell('A1', 'Name')}${cell('B1', 'Email')}</row><row r="2">${cell('A2', 'Ann')}${cell('B2', 'ann@example.com')}</row>`,
  );
  const flushed = (data: Buffer) => deflateRawSync(data, { finishFlush: constants.Z_FULL_FLUSH });
  const headPiece = flushed(head);
  const mib = flushed(Buffer.alloc(MiB, ' '));
  const tail = Buffer.from(SHEET_TAIL);
  const copies = Math.max(1, Math.floor((fileBytes - headPiece.length - 4096) / mib.length));
  const deflated = Buffer.concat([
    headPiece,
    ...Array.from({ length: copies }, () => mib),
    deflateRawSync(tail),
  ]);
  const inflatedBytes = head.length + copies * MiB + tail.length;
  const sheet: Part = { name: 'xl/worksheets/sheet1.xml', deflated, size: inflatedBytes, crc: 0 };
  const file = zip([...frame, sheet], (p) => (p === sheet && lie ? head.length : p.size));
  return { file, inflatedBytes };
}
