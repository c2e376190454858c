import { crc32, inflateRawSync } from 'node:zlib';
import { SpreadsheetRefusal } from './spreadsheet-limits.ts';

/**
 * The XML parts of an XLSX file (a ZIP archive), unpacked within a bound (issue 41 item 3).
 *
 * The central directory is read first: the sizes it declares for the parts a reader needs (`.xml`
 * and `.xml.rels`, what read-excel-file reads) must fit `maxBytes` together before anything is
 * inflated. Each part is then inflated with what is left of the bound as its ceiling, so a part
 * whose declared size lies stops being inflated at the bound. Other parts (images, printer
 * settings) are never inflated. `rebuildStored` writes the parts read here as a new archive
 * without compression, so the spreadsheet reader sees exactly these bytes and nothing the original
 * archive's local headers might add.
 *
 * Runs in the spreadsheet thread (spreadsheet-thread.ts): it loads only node:zlib.
 */

export interface ZipPart {
  name: string;
  data: Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_ENTRIES = 10_000;

const damaged = (why: string) => new SpreadsheetRefusal(`The XLSX file is damaged: ${why}`);
const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** Whether read-excel-file reads this part (its own filter). */
const isXmlPart = (name: string) => name.endsWith('.xml') || name.endsWith('.xml.rels');

function endOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  const lowest = Math.max(0, zip.length - 22 - 0xffff);
  for (let at = zip.length - 22; at >= lowest; at--) if (zip.readUInt32LE(at) === EOCD) return at;
  throw damaged('no ZIP central directory');
}

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** ZIP64 sizes and offset, from the extra field of a central directory entry (id 0x0001). */
function zip64(extra: Buffer, entry: Entry): void {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      const next = () => {
        if (field + 8 > at + 4 + length) throw damaged('a ZIP64 field is cut short');
        const value = Number(extra.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (entry.size === 0xffffffff) entry.size = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.localOffset === 0xffffffff) entry.localOffset = next();
      return;
    }
    at += 4 + length;
  }
}

function centralDirectory(zip: Buffer): Entry[] {
  const eocd = endOfCentralDirectory(zip);
  const count = zip.readUInt16LE(eocd + 10);
  const offset = zip.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES) throw new SpreadsheetRefusal(`The XLSX file has more than ${MAX_ENTRIES} parts`);
  const entries: Entry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL)
      throw damaged('a central directory entry is missing');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > zip.length) throw damaged('a central directory entry is cut short');
    const entry: Entry = {
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
    };
    zip64(zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry);
    entries.push(entry);
    at = end;
  }
  return entries;
}

function compressedData(zip: Buffer, entry: Entry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL)
    throw damaged(`the part ${entry.name} is missing`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.length) throw damaged(`the part ${entry.name} is cut short`);
  return zip.subarray(start, start + entry.compressedSize);
}

/** The archive's XML parts, inflated; together at most `maxBytes`, else a refusal naming the bound. */
export function unpackXmlParts(zip: Buffer, maxBytes: number): ZipPart[] {
  const tooLarge = (what: string) =>
    new SpreadsheetRefusal(
      `The XLSX file unpacks to ${what}; a bulk send's workbook may unpack to at most ${mb(maxBytes)}`,
    );
  const entries = centralDirectory(zip).filter((e) => isXmlPart(e.name));
  const names = new Set<string>();
  let declared = 0;
  for (const entry of entries) {
    if (names.has(entry.name)) throw damaged(`two parts are named ${entry.name}`);
    names.add(entry.name);
    if (entry.flags & 1)
      throw new SpreadsheetRefusal('The XLSX file is encrypted: save it without a password');
    if (entry.method !== 0 && entry.method !== 8)
      throw damaged(`the part ${entry.name} uses an unknown compression method (${entry.method})`);
    declared += entry.size;
  }
  // Before inflating anything: what the archive says it holds.
  if (declared > maxBytes) throw tooLarge(mb(declared));
  const parts: ZipPart[] = [];
  let left = maxBytes;
  for (const entry of entries) {
    const raw = compressedData(zip, entry);
    let data: Buffer;
    if (entry.method === 0) data = raw;
    else {
      try {
        // Inflating stops once the output would pass what is left of the bound.
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, left) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
          throw tooLarge(`more than ${mb(maxBytes)} (its sizes are misdeclared)`);
        throw damaged(`the part ${entry.name} cannot be inflated`);
      }
    }
    if (data.length > left) throw tooLarge(`more than ${mb(maxBytes)} (its sizes are misdeclared)`);
    left -= data.length;
    parts.push({ name: entry.name, data });
  }
  return parts;
}

/** A ZIP archive of `parts`, stored without compression (what the spreadsheet reader is given). */
export function rebuildStored(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of parts) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(EOCD, 0);
  eocd.writeUInt16LE(parts.length, 8);
  eocd.writeUInt16LE(parts.length, 10);
  eocd.writeUInt32LE(centralSize, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, eocd]);
}
