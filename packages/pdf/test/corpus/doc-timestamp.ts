import { createHash } from 'node:crypto';
import {
  PDF,
  PdfArray,
  PdfBool,
  PdfDict,
  PdfName,
  PdfNull,
  PdfNumber,
  type PdfObject,
  PdfRef,
  PdfStream,
  PdfString,
} from '@libpdf/core';
import type { TestTsa } from './tsa.ts';
import { appendUpdate, type Layout, type NewObject, stream, trailerOf } from './update.ts';

// Document timestamps (ISO 32000-2 §12.8.5, ETSI EN 319 142-1 §5.4) and DSS updates (§12.8.4.3)
// appended by hand, as a renewal tool (pyHanko `ltaupdate`) writes them, or as an attacker does:
// the field, its widget, the /DocTimeStamp dictionary with a RFC 3161 token from a TestTsa over
// the byte ranges, and whatever else the options put in the same revision.

/** PDF source of a (direct) object read with @libpdf/core; streams are not written this way. */
export function pdfSource(obj: PdfObject | undefined): string {
  if (obj === undefined || obj instanceof PdfNull) return 'null';
  if (obj instanceof PdfRef) return `${obj.objectNumber} ${obj.generation} R`;
  if (obj instanceof PdfName) return `/${obj.value}`;
  if (obj instanceof PdfNumber) return String(obj.value);
  if (obj instanceof PdfBool) return obj.value ? 'true' : 'false';
  if (obj instanceof PdfString) return `<${Buffer.from(obj.bytes).toString('hex')}>`;
  if (obj instanceof PdfArray) return `[${obj.toArray().map(pdfSource).join(' ')}]`;
  if (obj instanceof PdfStream) throw new Error('streams are written with stream()');
  if (obj instanceof PdfDict)
    return `<< ${[...obj].map(([k, v]) => `/${k.value} ${pdfSource(v)}`).join(' ')} >>`;
  throw new Error(`cannot write ${obj.type}`);
}

/** A dictionary's source with some entries replaced (undefined removes one). */
export function withEntries(dict: PdfDict, entries: Record<string, string | undefined>): string {
  const out: string[] = [];
  for (const [k, v] of dict) if (!(k.value in entries)) out.push(`/${k.value} ${pdfSource(v)}`);
  for (const [k, v] of Object.entries(entries)) if (v !== undefined) out.push(`/${k} ${v}`);
  return `<< ${out.join(' ')} >>`;
}

export interface Parsed {
  pdf: PDF;
  catalog: PdfDict;
  catalogRef: PdfRef;
  resolve: (obj: PdfObject | undefined) => PdfObject | undefined;
  pageRef(index: number): PdfRef;
}

export async function parse(bytes: Uint8Array): Promise<Parsed> {
  const pdf = await PDF.load(bytes);
  const catalog = pdf.getCatalog();
  return {
    pdf,
    catalog,
    catalogRef: pdf.context.getRef(catalog)!,
    resolve: (obj) => (obj instanceof PdfRef ? (pdf.context.resolve(obj) ?? undefined) : obj),
    pageRef: (i) => (pdf.getPage(i) as unknown as { ref: PdfRef }).ref,
  };
}

const src = (ref: PdfRef) => `${ref.objectNumber} ${ref.generation} R`;

export interface RevisionOptions {
  /** Certificates (DER) to add to the DSS (created when absent), as a DSS update does. */
  dssCertificates?: Uint8Array[];
  /** Catalog /Extensions (the ESIC developer extension PAdES names). */
  extensions?: boolean;
  /**
   * A document timestamp by this TSA, at `time` (default now), imprinting the digest of its byte
   * ranges, or `digest` when given (a token that is not over the range).
   */
  timestamp?: Timestamp;
  /** The timestamp's widget is also listed in page 1's /Annots (as pyHanko and Acrobat do). */
  widgetOnPage?: boolean;
  /** AcroForm /NeedAppearances true. */
  needAppearances?: boolean;
  /** Extra entries for the timestamp field (e.g. an /AP that points elsewhere). */
  fieldExtra?: string;
  /** The widget's /Rect (default [0 0 0 0]: invisible). */
  rect?: string;
  /**
   * Instead of a timestamp: a signature field whose /V is this dictionary, written as given (no
   * token is filled in), in an object stream of an xref-stream update when `packed`.
   */
  signature?: { body: string; packed?: boolean; field?: string };
  /** The widget's /F (default 132: print, locked). */
  flags?: string;
  /** Other objects written in the same revision. */
  objects?: NewObject[];
  /** How the revision's update is written (see update.ts). */
  layout?: Layout;
}

interface Timestamp {
  tsa: TestTsa;
  time?: Date;
  digest?: Uint8Array;
}

const CONTENTS_HEX = 16384;

/** Appends one revision: a DSS update and/or a document timestamp (see RevisionOptions). */
export async function appendLtvRevision(base: Uint8Array, opts: RevisionOptions): Promise<Uint8Array> {
  const p = await parse(base);
  const t = trailerOf(base);
  let next = t.size;
  const objects: NewObject[] = [...(opts.objects ?? [])];
  for (const o of objects) next = Math.max(next, o.num + 1);
  const catalogEntries: Record<string, string | undefined> = {};
  let catalogChanged = false;

  if (opts.dssCertificates) {
    const dssValue = p.catalog.get('DSS');
    const dss = p.resolve(dssValue) as PdfDict | undefined;
    const certs = (dss?.getArray('Certs')?.toArray() ?? []).map(pdfSource);
    for (const der of opts.dssCertificates) {
      const num = next++;
      objects.push({ num, body: stream('', der) });
      certs.push(`${num} 0 R`);
    }
    const body = dss
      ? withEntries(dss, { Certs: `[${certs.join(' ')}]` })
      : `<< /Type /DSS /Certs [${certs.join(' ')}] >>`;
    if (dssValue instanceof PdfRef) objects.push({ num: dssValue.objectNumber, body });
    else {
      const num = next++;
      objects.push({ num, body });
      catalogEntries.DSS = `${num} 0 R`;
      catalogChanged = true;
    }
  }
  if (opts.extensions) {
    catalogEntries.Extensions = '<< /ESIC << /BaseVersion /1.7 /ExtensionLevel 2 >> >>';
    catalogChanged = true;
  }

  let sigNum = -1;
  const packed: NewObject[] = [];
  if (opts.timestamp || opts.signature) {
    const fieldNum = next++;
    const valueNum = next++;
    if (opts.timestamp && !opts.signature) sigNum = valueNum;
    const page = p.pageRef(0);
    const value = {
      num: valueNum,
      body:
        opts.signature?.body ??
        `<< /Type /DocTimeStamp /Filter /Adobe.PPK.Lite /SubFilter /ETSI.RFC3161 /ByteRange [0 0 0 0]${' '.repeat(30)} /Contents <${'0'.repeat(CONTENTS_HEX)}> >>`,
    };
    (opts.signature?.packed ? packed : objects).push(value);
    objects.push({
      num: fieldNum,
      body: `<< /FT /Sig /T (${opts.signature?.field ?? 'Timestamp'} ${fieldNum}) /V ${valueNum} 0 R /Type /Annot /Subtype /Widget /Rect ${opts.rect ?? '[0 0 0 0]'} /F ${opts.flags ?? '132'} /P ${src(page)} ${opts.fieldExtra ?? ''} >>`,
    });
    const formValue = p.catalog.get('AcroForm');
    const form = p.resolve(formValue) as PdfDict | undefined;
    const fields = [...(form?.getArray('Fields')?.toArray() ?? []).map(pdfSource), `${fieldNum} 0 R`];
    const formEntries: Record<string, string | undefined> = {
      Fields: `[${fields.join(' ')}]`,
      SigFlags: '3',
    };
    if (opts.needAppearances) formEntries.NeedAppearances = 'true';
    const formBody = form
      ? withEntries(form, formEntries)
      : `<< /Fields [${fields.join(' ')}] /SigFlags 3 >>`;
    if (formValue instanceof PdfRef) objects.push({ num: formValue.objectNumber, body: formBody });
    else {
      catalogEntries.AcroForm = formBody;
      catalogChanged = true;
    }
    if (opts.widgetOnPage) {
      const pageDict = p.resolve(page) as PdfDict;
      const annotsValue = pageDict.get('Annots');
      const annots = p.resolve(annotsValue) as PdfArray | undefined;
      const list = `[${[...(annots?.toArray() ?? []).map(pdfSource), `${fieldNum} 0 R`].join(' ')}]`;
      if (annotsValue instanceof PdfRef) objects.push({ num: annotsValue.objectNumber, body: list });
      else objects.push({ num: page.objectNumber, body: withEntries(pageDict, { Annots: list }) });
    }
  }
  if (catalogChanged)
    objects.push({ num: p.catalogRef.objectNumber, body: withEntries(p.catalog, catalogEntries) });

  const bytes = appendUpdate(base, {
    objects,
    layout: opts.layout,
    ...(packed.length > 0 ? { xref: 'stream' as const, packed } : {}),
  });
  return sigNum < 0 ? bytes : fillTimestamp(bytes, base.length, opts.timestamp!);
}

/** Writes the /ByteRange and the token into the placeholder the last revision holds. */
function fillTimestamp(bytes: Uint8Array, from: number, ts: Timestamp): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1');
  const rangeAt = text.indexOf('/ByteRange [0 0 0 0]', from);
  const contentsAt = text.indexOf('/Contents <', rangeAt) + '/Contents '.length;
  const contentsEnd = contentsAt + CONTENTS_HEX + 2;
  const range = `/ByteRange [0 ${contentsAt} ${contentsEnd} ${bytes.length - contentsEnd}]`;
  const placeholder = `/ByteRange [0 0 0 0]${' '.repeat(30)}`;
  const out = Buffer.from(bytes);
  out.write(range.padEnd(placeholder.length, ' '), rangeAt, 'latin1');
  const digest = createHash('sha256')
    .update(out.subarray(0, contentsAt))
    .update(out.subarray(contentsEnd))
    .digest();
  const token = Buffer.from(ts.tsa.token(ts.digest ?? digest, ts.time ?? new Date())).toString('hex');
  if (token.length > CONTENTS_HEX) throw new Error('timestamp token too large');
  out.write(token, contentsAt + 1, 'latin1');
  return new Uint8Array(out);
}
