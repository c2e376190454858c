import { flateStream, type NewObject, stream } from './update.ts';

// The templates the corpus seals, written byte by byte so they can hold what an attack needs in
// the signed revision: a covered text (shadow hide), an unused content stream (shadow
// hide-and-replace), a page content reference to an object that does not exist (item 3).

/** A whole PDF file from its objects (classic xref, trailer with /Root 1 0 R and /Info). */
export function buildPdf(objects: NewObject[], info?: number): Uint8Array {
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets = new Map<number, number>();
  for (const o of [...objects].sort((a, b) => a.num - b.num)) {
    offsets.set(o.num, out.length);
    out += `${o.num} 0 obj\n${o.body}\nendobj\n`;
  }
  const size = Math.max(...offsets.keys()) + 1;
  const xrefAt = out.length;
  out += `xref\n0 ${size}\n0000000000 65535 f\r\n`;
  for (let n = 1; n < size; n++) {
    const at = offsets.get(n);
    out += at === undefined ? '0000000000 00000 f\r\n' : `${String(at).padStart(10, '0')} 00000 n\r\n`;
  }
  const id = '<0123456789ABCDEF0123456789ABCDEF>';
  out += `trailer\n<< /Size ${size} /Root 1 0 R${info ? ` /Info ${info} 0 R` : ''} /ID [${id} ${id}] >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** Object numbers of the template (the same in every sealed copy of it). */
export const T = {
  catalog: 1,
  pages: 2,
  page1: 3,
  page2: 4,
  font: 5,
  text1: 6,
  text2: 7,
  cover: 8,
  covered: 9,
  shadow: 10,
  info: 11,
  dangling: 900,
} as const;

const text = (lines: [number, number, string][]) =>
  lines.map(([x, y, s]) => `BT /F1 12 Tf ${x} ${y} Td (${s}) Tj ET`).join('\n');

/**
 * A two-page contract. Page 1: its heading and "Fee: EUR 4,000" (object 6), then object 9 draws
 * "Fee: EUR 40,000" and paints the white form XObject /Cover (object 8) over it. Object 10, used
 * by nothing, is another page 1 content ("Fee: EUR 40,000"). With `dangling`, page 1's /Contents
 * also names object 900, which does not exist.
 */
export function contractTemplate(opts: { dangling?: boolean } = {}): Uint8Array {
  return buildPdf(contractObjects(opts), T.info);
}

/** The objects of `contractTemplate`, for templates built from it. */
export function contractObjects(opts: { dangling?: boolean } = {}): NewObject[] {
  const contents = `[${T.text1} 0 R ${T.covered} 0 R${opts.dangling ? ` ${T.dangling} 0 R` : ''}]`;
  return [
    { num: T.catalog, body: `<< /Type /Catalog /Pages ${T.pages} 0 R >>` },
    { num: T.pages, body: `<< /Type /Pages /Kids [${T.page1} 0 R ${T.page2} 0 R] /Count 2 >>` },
    {
      num: T.page1,
      body: `<< /Type /Page /Parent ${T.pages} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${T.font} 0 R >> /XObject << /Cover ${T.cover} 0 R >> >> /Contents ${contents} >>`,
    },
    {
      num: T.page2,
      body: `<< /Type /Page /Parent ${T.pages} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${T.font} 0 R >> >> /Contents ${T.text2} 0 R >>`,
    },
    {
      num: T.font,
      body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    },
    {
      num: T.text1,
      body: flateStream(
        '',
        text([
          [40, 800, 'Contract page 1'],
          [60, 700, 'Fee: EUR 4,000'],
        ]),
      ),
    },
    {
      num: T.text2,
      body: flateStream(
        '',
        text([
          [40, 800, 'Contract page 2'],
          [60, 700, 'Term: 12 months'],
        ]),
      ),
    },
    {
      num: T.cover,
      body: stream('/Type /XObject /Subtype /Form /BBox [0 0 595 842]', '1 g 50 640 300 30 re f'),
    },
    { num: T.covered, body: stream('', `${text([[60, 650, 'Fee: EUR 40,000']])}\n/Cover Do`) },
    {
      num: T.shadow,
      body: stream(
        '',
        text([
          [40, 800, 'Contract page 1'],
          [60, 700, 'Fee: EUR 40,000'],
        ]),
      ),
    },
    { num: T.info, body: '<< /Title (Contract) /Producer (corpus) >>' },
  ];
}
