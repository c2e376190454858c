import { createHash } from 'node:crypto';
import type { PdfObject } from '@libpdf/core';
import type { SigningIdentity } from '../../src/seal/index.ts';
import { type Base, dictOf, forgedText1, page1With, sealTemplate, signedOffset } from './corpus.ts';
import { appendLtvRevision, pdfSource, withEntries } from './doc-timestamp.ts';
import { corpusIdentity } from './identity.ts';
import { buildPdf, contractObjects, contractTemplate, T } from './templates.ts';
import { createTestTsa, type TestTsa } from './tsa.ts';
import { appendUpdate, flateStream, type NewObject, stream, trailerOf } from './update.ts';

// Issue 40's families of forgeries, each on a B-B and a B-LTA seal of ours: files on which the
// verifier and the readers can read different things (A), document timestamps that are not
// what they seem (B), templates built to change later (C), /Encrypt added by an update (D), a
// second signature that is not its own (E), and the benign variants that must stay intact (F).
// Every forgery changes what a reader shows of page 1 (or of the file); the test
// (verify-families.test.ts) checks that with poppler and MuPDF.

export type Family = 'A' | 'B' | 'C' | 'D' | 'E' | 'F';

export const FAMILY_TITLES: Record<Family, string> = {
  A: 'parser differentials',
  B: 'document timestamps that are not what they seem',
  C: "a sender's template built to change later",
  D: '/Encrypt added by an update',
  E: 'a second signature that is not its own',
  F: 'benign controls',
};

export interface FamilyCase {
  family: Family;
  /** What the file does, without its level. */
  attack: string;
  base: Base;
  bytes: Uint8Array;
  expect: 'modified' | 'intact_signature';
  /**
   * What the readers' oracle must find: `differs` (a forgery: poppler or MuPDF shows something
   * other than the signed revision), `same` (a benign file: both show the signed revision), or
   * `any` (the file's fault is in a signature, not in what is shown).
   */
  oracle: 'differs' | 'same' | 'any';
  /** Signatures (0-based, in file order) that must not verify. */
  invalid?: number[];
}

interface Attack {
  family: Family;
  attack: string;
  /** The template the bases are sealed from (default: the issue-30 contract). */
  template?: TemplateName;
  expect?: FamilyCase['expect'];
  oracle?: FamilyCase['oracle'];
  invalid?: number[];
  make: (base: Base, ctx: { tsa: TestTsa }) => Promise<Uint8Array> | Uint8Array;
}

type TemplateName = 'contract' | 'orphan parent' | 'loose widget' | 'inherited resources';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** Page 1's text redefined with "Fee: EUR 40,000": the change every parser differential carries. */
const forged: NewObject = { num: T.text1, body: forgedText1 };

/** A 240 x 30 pt appearance painting "Fee: EUR 40,000" on white, for a widget over the fee line. */
const feeAppearance = (extra = '') =>
  stream(
    `/Type /XObject /Subtype /Form /BBox [0 0 240 30] /Resources << /Font << /F1 ${T.font} 0 R >> >>${extra}`,
    '1 g 0 0 240 30 re f BT 0 g /F1 14 Tf 5 10 Td (Fee: EUR 40,000) Tj ET',
  );
const FEE_RECT = '[55 690 295 720]';

/** Offset of the last classic xref section at or before `end` (the signed revision's, with its seal's end). */
function xrefBefore(bytes: Uint8Array, end: number): number {
  return text(bytes).lastIndexOf('\nxref', end) + 1;
}

/** A DSS update adding the TSA's certificate: validation data only. */
const dssOnly = (b: Base, tsa: TestTsa, layout: Parameters<typeof appendUpdate>[1]['layout']) =>
  appendLtvRevision(b.bytes, { dssCertificates: [tsa.certDer], layout });

/** A document-timestamp-looking revision whose widget, listed in page 1 /Annots, draws over the fee. */
async function visibleTimestamp(
  b: Base,
  tsa: TestTsa,
  opts: Omit<Parameters<typeof appendLtvRevision>[1], 'objects'> & { more?: (n: number) => NewObject[] },
) {
  const n = trailerOf(b.bytes).size + 10;
  const { more, ...rest } = opts;
  return appendLtvRevision(b.bytes, {
    timestamp: { tsa },
    widgetOnPage: true,
    rect: FEE_RECT,
    fieldExtra: `/AP << /N ${n} 0 R >>`,
    ...rest,
    objects: [{ num: n, body: feeAppearance() }, ...(more?.(n) ?? [])],
  });
}

// ---- Family D: RC4 (ISO 32000-1 §7.6.2), for an /Encrypt whose empty user password opens -------

const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

/** A standard security handler dictionary, revision 2: the empty user password opens it when `opens`. */
function encryptDict(b: Base, opens: boolean): string {
  const o = createHash('sha256').update('owner').digest().subarray(0, 32);
  const p = -44;
  const id = Buffer.from(/<([0-9A-Fa-f]+)>/.exec(trailerOf(b.bytes).id ?? '')![1]!, 'hex');
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p);
  const key = createHash('md5')
    .update(PASSWORD_PAD)
    .update(o)
    .update(pBytes)
    .update(id)
    .digest()
    .subarray(0, 5);
  const u = opens ? rc4(key, PASSWORD_PAD) : createHash('sha256').update('not the password').digest();
  return `<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P ${p} >>`;
}

// ---- Family E: a second signature dictionary that copies the first one's ---------------------

/** A second approval signature whose /ByteRange (and /Contents, unless zeroed) are the seal's. */
async function borrowedSignature(b: Base, contents: 'copied' | 'zeroed'): Promise<Uint8Array> {
  const sig = await dictOf(b.bytes, b.sigDict);
  const range = pdfSource(sig.get('ByteRange') as PdfObject);
  const hex = /<([0-9a-fA-F]*)>/.exec(pdfSource(sig.get('Contents') as PdfObject))![1]!;
  const value = contents === 'copied' ? hex : '0'.repeat(hex.length);
  return appendLtvRevision(b.bytes, {
    signature: {
      field: 'Approval',
      body: `<< /Type /Sig /Filter /Adobe.PPK.Lite /SubFilter /ETSI.CAdES.detached /ByteRange ${range} /Contents <${value}> /M (D:19800101000000Z) /Name (Mallory) >>`,
    },
    widgetOnPage: true,
  });
}

// ---- Family C: templates ------------------------------------------------------------------------

/** Object numbers the family-C templates add to the contract's. */
const C = { node: 12, widget: 13, widgetAp: 14, form: 15, page3: 16, text3: 17 } as const;

function template(name: TemplateName): Uint8Array {
  if (name === 'contract') return contractTemplate();
  const objects = contractObjects();
  const replace = (num: number, body: string) => {
    objects.find((o) => o.num === num)!.body = body;
  };
  const page1 = objects.find((o) => o.num === T.page1)!.body;
  if (name === 'orphan parent') {
    // Page 1's /Parent is a /Pages node the tree does not list; the tree's root lists page 1.
    replace(T.page1, page1.replace(`/Parent ${T.pages} 0 R`, `/Parent ${C.node} 0 R`));
    objects.push({ num: C.node, body: `<< /Type /Pages /Kids [${T.page1} 0 R] /Count 1 >>` });
  }
  if (name === 'loose widget') {
    // A text-field widget only in page 1 /Annots (no field of /Fields lists it): its appearance is
    // empty, its /V says "Fee: EUR 40,000" on a white background.
    replace(T.catalog, `<< /Type /Catalog /Pages ${T.pages} 0 R /AcroForm ${C.form} 0 R >>`);
    replace(T.page1, page1.replace(/>>$/, `/Annots [${C.widget} 0 R] >>`));
    objects.push(
      {
        num: C.form,
        body: `<< /Fields [] /DR << /Font << /Helv ${T.font} 0 R >> >> /DA (/Helv 0 Tf 0 g) >>`,
      },
      {
        num: C.widget,
        body: `<< /Type /Annot /Subtype /Widget /FT /Tx /T (fee) /V (Fee: EUR 40,000) /DA (/Helv 14 Tf 0 g) /MK << /BG [1] >> /Rect ${FEE_RECT} /F 4 /P ${T.page1} 0 R /AP << /N ${C.widgetAp} 0 R >> >>`,
      },
      { num: C.widgetAp, body: stream('/Type /XObject /Subtype /Form /BBox [0 0 240 30]', '') },
    );
  }
  if (name === 'inherited resources') {
    // A third page (no signer's value on it) takes its /Resources from an intermediate /Pages node.
    replace(T.pages, `<< /Type /Pages /Kids [${T.page1} 0 R ${T.page2} 0 R ${C.node} 0 R] /Count 3 >>`);
    objects.push(
      {
        num: C.node,
        body: `<< /Type /Pages /Parent ${T.pages} 0 R /Kids [${C.page3} 0 R] /Count 1 /Resources << /Font << /F1 ${T.font} 0 R >> >> >>`,
      },
      {
        num: C.page3,
        body: `<< /Type /Page /Parent ${C.node} 0 R /MediaBox [0 0 595 842] /Contents ${C.text3} 0 R >>`,
      },
      {
        num: C.text3,
        body: flateStream(
          '',
          'BT /F1 12 Tf 40 800 Td (Annex: fee schedule) Tj ET BT /F1 12 Tf 60 700 Td (Fee: EUR 4,000) Tj ET',
        ),
      },
    );
  }
  return buildPdf(objects, T.info);
}

/** Redefines a /Pages node with some entries replaced. */
async function node(b: Base, num: number, entries: Record<string, string>): Promise<Uint8Array> {
  return appendUpdate(b.bytes, {
    objects: [{ num, body: withEntries(await dictOf(b.bytes, num), entries) }],
  });
}

const ATTACKS: Attack[] = [
  // ---- A. Parser differentials: page 1's fee changed by an update written so that a strict
  // reader and a recovering one read different objects ----------------------------------------
  {
    family: 'A',
    attack: '`startxref` outside the last 1,024 bytes (a long comment before %%EOF)',
    make: (b) =>
      appendUpdate(b.bytes, { objects: [forged], layout: { beforeEof: `%${'x'.repeat(1100)}\n` } }),
  },
  {
    family: 'A',
    attack: 'a comment inside the xref table',
    make: (b) =>
      appendUpdate(b.bytes, { objects: [forged], layout: { xrefComment: '% a comment inside the table' } }),
  },
  {
    family: 'A',
    attack: 'xref entries ending in a bare LF (19-byte lines), carrying a page change',
    make: (b) => appendUpdate(b.bytes, { objects: [forged], layout: { entryEnd: '\n' } }),
  },
  {
    family: 'A',
    attack:
      "two xref sections in one update: the first lists the forged page 1 text, the last (/Prev to the first) a note, the first's /Prev the signed one",
    make: (b) => {
      const first = appendUpdate(b.bytes, { objects: [forged], layout: { noEof: true } });
      const firstAt = text(first).lastIndexOf('\nxref\n') + 1;
      const note = { num: trailerOf(b.bytes).size, body: '<< /Note (second section) >>' };
      return appendUpdate(first, { objects: [note], layout: { prev: firstAt } });
    },
  },
  {
    family: 'A',
    attack: 'a hybrid update whose /XRefStm (/W [1 8 2]) lists the forged page 1 text',
    make: (b) => appendUpdate(b.bytes, { xref: 'hybrid', objects: [forged], layout: { w: [1, 8, 2] } }),
  },
  {
    family: 'A',
    attack: 'an xref stream with /Filter [/FlateDecode] as an array',
    make: (b) => appendUpdate(b.bytes, { xref: 'stream', objects: [forged], layout: { filterArray: true } }),
  },
  {
    family: 'A',
    attack: 'xref offsets at the whitespace before `N 0 obj`, carrying a page change',
    make: (b) => appendUpdate(b.bytes, { objects: [forged], layout: { offsetAtBlank: true } }),
  },
  {
    family: 'A',
    attack:
      'an xref stream whose /Index lists object 6 twice: the forged page 1 text first, the signed one again last',
    make: (b) =>
      appendUpdate(b.bytes, {
        xref: 'stream',
        objects: [forged],
        relisted: [{ num: T.text1, offset: signedOffset(b.bytes, T.text1) }],
      }),
  },
  {
    family: 'A',
    attack: "a /Prev pointing into the middle of the signed revision's xref table",
    make: (b) => {
      const at = xrefBefore(b.bytes, b.signedEnd);
      const lines = text(b.bytes).slice(at).split('\n');
      const middle = at + lines.slice(0, 5).join('\n').length + 1;
      return appendUpdate(b.bytes, { objects: [forged], layout: { prev: middle } });
    },
  },
  {
    family: 'A',
    attack:
      'an object stream in the update redefining page 1 to draw the signed, unused stream (shadow via ObjStm)',
    make: async (b) => {
      const page = await dictOf(b.bytes, T.page1);
      const contents = pdfSource(page.get('Contents') as PdfObject).replace(
        `${T.text1} 0 R`,
        `${T.shadow} 0 R`,
      );
      return appendUpdate(b.bytes, {
        xref: 'stream',
        packed: [{ num: T.page1, body: await page1With(b.bytes, { Contents: contents }) }],
      });
    },
  },
  {
    family: 'A',
    attack: 'a DSS-only update written with CR LF line ends',
    expect: 'intact_signature',
    oracle: 'same',
    make: (b, { tsa }) => dssOnly(b, tsa, { newline: '\r\n' }),
  },
  {
    family: 'A',
    attack: 'a DSS-only update written with CR line ends',
    expect: 'intact_signature',
    oracle: 'same',
    make: (b, { tsa }) => dssOnly(b, tsa, { newline: '\r', entryEnd: ' \r' }),
  },
  // ---- B. Document timestamps that are not what they seem: widgets drawing over the fee line --
  {
    family: 'B',
    attack: 'a timestamp widget whose /Rect is an indirect reference',
    make: (b, { tsa }) =>
      visibleTimestamp(b, tsa, {
        rect: `${trailerOf(b.bytes).size + 11} 0 R`,
        more: (n) => [{ num: n + 1, body: FEE_RECT }],
      }),
  },
  {
    family: 'B',
    attack: 'a timestamp widget whose /Rect is an array of indirect numbers',
    make: (b, { tsa }) => {
      const n = trailerOf(b.bytes).size + 10;
      return visibleTimestamp(b, tsa, {
        rect: `[${n + 1} 0 R ${n + 2} 0 R ${n + 3} 0 R ${n + 4} 0 R]`,
        more: () => [55, 690, 295, 720].map((v, i) => ({ num: n + 1 + i, body: String(v) })),
      });
    },
  },
  {
    family: 'B',
    attack: 'a timestamp widget with /F 2.0 (a real, not the integer 2 that means hidden)',
    make: (b, { tsa }) => visibleTimestamp(b, tsa, { flags: '2.0' }),
  },
  {
    family: 'B',
    attack: 'a /DocTimeStamp dictionary with no /ByteRange, inside an object stream (no token)',
    make: (b) =>
      visibleTimestamp(b, createTestTsa(), {
        timestamp: undefined,
        signature: {
          packed: true,
          body: '<< /Type /DocTimeStamp /Filter /Adobe.PPK.Lite /SubFilter /ETSI.RFC3161 >>',
        },
      }),
  },
  {
    family: 'B',
    attack: 'a timestamp field whose /V is typed /Sig with no /ByteRange',
    make: (b) =>
      visibleTimestamp(b, createTestTsa(), {
        timestamp: undefined,
        signature: { body: '<< /Type /Sig /Filter /Adobe.PPK.Lite /SubFilter /ETSI.RFC3161 >>' },
      }),
  },
  // Not here: a zero-size (or zero-height) /Rect whose appearance /BBox and /Matrix draw large.
  // Neither poppler nor MuPDF draws it (both map the appearance into the rectangle, scaled to
  // nothing), for a point /Rect, a zero-height one, with or without a /Matrix: no reader shows
  // a forgery, so the file would not be one.
  {
    family: 'B',
    attack: 'a valid-looking timestamp whose token is not over its byte ranges',
    make: (b, { tsa }) =>
      visibleTimestamp(b, tsa, {
        timestamp: { tsa, digest: createHash('sha256').update('another file').digest() },
      }),
  },
  // ---- C. A sender's template built to change later ------------------------------------------
  {
    family: 'C',
    template: 'orphan parent',
    attack: "page 1's /Parent is a /Pages node the tree does not list; an update gives that node /Rotate 180",
    make: (b) => node(b, C.node, { Rotate: '180' }),
  },
  {
    family: 'C',
    template: 'orphan parent',
    attack:
      "page 1's /Parent is a /Pages node the tree does not list; an update gives that node a /CropBox without the fee line",
    make: (b) => node(b, C.node, { CropBox: '[0 720 595 842]' }),
  },
  {
    family: 'C',
    template: 'loose widget',
    attack:
      'a text widget outside /Fields whose /V differs from its empty appearance, redrawn after a document timestamp sets /NeedAppearances true',
    make: (b, { tsa }) => appendLtvRevision(b.bytes, { timestamp: { tsa }, needAppearances: true }),
  },
  {
    family: 'C',
    template: 'loose widget',
    attack: 'a text widget outside /Fields whose /V and /DA an update changes, its appearance dropped',
    make: async (b) => {
      const widget = await dictOf(b.bytes, C.widget);
      return appendUpdate(b.bytes, {
        objects: [
          {
            num: C.widget,
            body: withEntries(widget, { V: '(Fee: EUR 400,000)', DA: '(/Helv 16 Tf 0 g)', AP: undefined }),
          },
        ],
      });
    },
  },
  {
    family: 'C',
    template: 'inherited resources',
    attack:
      "page 3's /Resources, inherited from an intermediate /Pages node, changed on that node (another font)",
    make: (b) =>
      node(b, C.node, {
        Resources: `<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Courier-Bold /Encoding /WinAnsiEncoding >> >> >>`,
      }),
  },
  // ---- D. /Encrypt added to the trailer by an update ------------------------------------------
  {
    family: 'D',
    attack: '/Encrypt added by an update, its user password unknown (readers cannot open the file)',
    make: (b) => {
      const n = trailerOf(b.bytes).size;
      return appendUpdate(b.bytes, {
        objects: [{ num: n, body: encryptDict(b, false) }],
        trailerExtra: `/Encrypt ${n} 0 R`,
      });
    },
  },
  {
    family: 'D',
    attack:
      '/Encrypt added by an update that the empty password opens (readers decrypt plain streams to garbage)',
    make: (b) => {
      const n = trailerOf(b.bytes).size;
      return appendUpdate(b.bytes, {
        objects: [{ num: n, body: encryptDict(b, true) }],
        trailerExtra: `/Encrypt ${n} 0 R`,
      });
    },
  },
  // ---- E. The miss: a second signature that is not its own ------------------------------------
  {
    family: 'E',
    attack:
      "a second approval signature whose /ByteRange and /Contents are the seal's (it signs the seal's revision), /M 1980",
    oracle: 'any',
    invalid: [1],
    make: (b) => borrowedSignature(b, 'copied'),
  },
  {
    family: 'E',
    attack: "a second approval signature over the seal's /ByteRange whose /Contents is zeroed",
    oracle: 'any',
    invalid: [1],
    make: (b) => borrowedSignature(b, 'zeroed'),
  },
  // ---- F. Benign controls ---------------------------------------------------------------------
  {
    family: 'F',
    attack: 'a DSS-only update with 19-byte xref entries (ending in a bare LF)',
    expect: 'intact_signature',
    oracle: 'same',
    make: (b, { tsa }) => dssOnly(b, tsa, { entryEnd: '\n' }),
  },
  {
    family: 'F',
    attack: 'a DSS-only update whose xref offsets point at the whitespace before `N 0 obj`',
    expect: 'intact_signature',
    oracle: 'same',
    make: (b, { tsa }) => dssOnly(b, tsa, { offsetAtBlank: true }),
  },
  {
    family: 'F',
    attack: 'a genuine document timestamp with a zero-size widget in page 1 /Annots',
    expect: 'intact_signature',
    oracle: 'same',
    make: (b, { tsa }) => appendLtvRevision(b.bytes, { timestamp: { tsa }, widgetOnPage: true }),
  },
];

export interface Families {
  identity: SigningIdentity;
  tsa: TestTsa;
  bases: Base[];
  cases: FamilyCase[];
}

/** Seals each template at B-B and B-LTA and builds every file of every family (about 60). */
export async function buildFamilies(): Promise<Families> {
  const identity = await corpusIdentity();
  const tsa = createTestTsa();
  const bases = new Map<string, Base>();
  const baseOf = async (name: TemplateName, level: 'B-B' | 'B-LTA') => {
    const key = `${name}/${level}`;
    let base = bases.get(key);
    if (!base) {
      base = await sealTemplate(template(name), name, level, identity, tsa);
      bases.set(key, base);
    }
    return base;
  };
  const cases: FamilyCase[] = [];
  for (const a of ATTACKS) {
    for (const level of ['B-B', 'B-LTA'] as const) {
      const base = await baseOf(a.template ?? 'contract', level);
      cases.push({
        family: a.family,
        attack: a.attack,
        base,
        bytes: await a.make(base, { tsa }),
        expect: a.expect ?? 'modified',
        oracle: a.oracle ?? 'differs',
        invalid: a.invalid,
      });
    }
  }
  return { identity, tsa, bases: [...bases.values()], cases };
}

/** The name of a case as tests and reports show it. */
export const caseName = (c: FamilyCase) => `${c.attack} (${c.base.level})`;
