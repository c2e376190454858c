import { type PdfDict, type PdfObject, PdfRef } from '@libpdf/core';
import {
  createRevocationProvider,
  createTimestampAuthority,
  type PadesLevel,
  type SigningIdentity,
  sealDocument,
} from '../../src/seal/index.ts';
import { appendLtvRevision, parse, pdfSource, withEntries } from './doc-timestamp.ts';
import { corpusIdentity } from './identity.ts';
import { contractTemplate, T } from './templates.ts';
import { createTestTsa, type TestTsa } from './tsa.ts';
import { appendUpdate, flateStream, stream, trailerOf } from './update.ts';

// The verifier's attack corpus (issue 30): every published attack class on signed PDFs (USF, ISA,
// SWA from Mladenov et al. 2019; shadow hide / replace / hide-and-replace and EAA / SSA from
// Mainka et al. 2021; duplicate roots, object streams, hybrid xref) and the seven cases of issue
// 30, each applied to a B-B seal and to a B-LTA seal of the same contract. Every file carries the
// verdict a correct verifier gives; the oracle (verify-corpus.test.ts) checks the rest with what
// poppler shows.

type BaseLevel = 'B-B' | 'B-LTA';

export interface Base {
  level: BaseLevel;
  /** 'contract' and 'dangling' here; issue 40's families seal templates of their own. */
  template: string;
  bytes: Uint8Array;
  /** Where the seal's signed revision ends (its /ByteRange end). */
  signedEnd: number;
  /** The seal's signature dictionary and the form XObject holding the signer's values. */
  sigDict: number;
  values: number;
}

interface Expectation {
  intact: boolean;
  /** The seal's level when intact. */
  level?: PadesLevel;
  /** Something `timestampIssues` of the seal must mention. */
  timestampIssue?: RegExp;
}

export interface CorpusCase {
  name: string;
  /** The attack class or issue item. */
  klass: string;
  base: Base;
  bytes: Uint8Array;
  expect: Expectation;
}

export interface Corpus {
  identity: SigningIdentity;
  tsa: TestTsa;
  cases: CorpusCase[];
  bases: Base[];
}

const VALUES = [
  { type: 'text' as const, areas: [{ page: 1, x: 0.1, y: 0.3, w: 0.4, h: 0.04 }], value: 'Alice Example' },
  { type: 'text' as const, areas: [{ page: 2, x: 0.1, y: 0.3, w: 0.4, h: 0.04 }], value: '2026-11-27' },
];

/** Seals a template at B-B, or at B-LTA with the corpus TSA (in process, no network). */
async function seal(
  template: 'contract' | 'dangling',
  level: BaseLevel,
  identity: SigningIdentity,
  tsa: TestTsa,
) {
  return sealTemplate(
    contractTemplate({ dangling: template === 'dangling' }),
    template,
    level,
    identity,
    tsa,
  );
}

/** Seals any template as `seal` does (the signer's values on pages 1 and 2). */
export async function sealTemplate(
  pdf: Uint8Array,
  template: string,
  level: BaseLevel,
  identity: SigningIdentity,
  tsa: TestTsa,
): Promise<Base> {
  const trust =
    level === 'B-LTA'
      ? {
          timestampAuthority: createTimestampAuthority({
            url: 'http://tsa.corpus.invalid/',
            fetch: tsa.fetch,
          }),
          revocationProvider: createRevocationProvider(async () => ({ status: 404, body: new Uint8Array() })),
        }
      : undefined;
  const bytes = await sealDocument({
    pdf,
    values: VALUES,
    identity,
    name: 'contract',
    trust,
  });
  const text = Buffer.from(bytes).toString('latin1');
  const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
  const p = await parse(bytes);
  const sigField = p.pdf
    .getForm()!
    .getFields()
    .find((f) => f.getDict().getName('FT')?.value === 'Sig')!;
  const sigDict = (sigField.getDict().get('V') as PdfRef).objectNumber;
  const page = p.pdf.getPage(0)!;
  const xobjects = p.resolve(page.getResources().get('XObject')) as PdfDict;
  const values = [...xobjects].find(([k]) => k.value.startsWith('EsignSeal'))![1] as PdfRef;
  return {
    level,
    template,
    bytes,
    signedEnd: Number(m[3]) + Number(m[4]),
    sigDict,
    values: values.objectNumber,
  } satisfies Base;
}

const paint = (s: string) => `q 1 g 55 690 240 30 re f Q BT /F1 14 Tf 60 700 Td (${s}) Tj ET`;

/** Page 1's text with the fee painted over: "Fee: EUR 40,000". */
export const forgedText1 = flateStream(
  '',
  `BT /F1 12 Tf 40 800 Td (Contract page 1) Tj ET ${paint('Fee: EUR 40,000')}`,
);

/** The current source of an object, for rewriting it with a change. */
export async function dictOf(bytes: Uint8Array, num: number): Promise<PdfDict> {
  const p = await parse(bytes);
  return p.resolve(PdfRef.of(num, 0)) as PdfDict;
}

export async function page1With(bytes: Uint8Array, entries: Record<string, string | undefined>) {
  return withEntries(await dictOf(bytes, T.page1), entries);
}

/** Page 1's /Contents array with `extra` appended. */
async function contentsPlus(bytes: Uint8Array, extra: number): Promise<string> {
  const page = await dictOf(bytes, T.page1);
  const contents = page.get('Contents') as PdfObject;
  return `[${pdfSource(contents).replace(/^\[|\]$/g, '')} ${extra} 0 R]`;
}

type Attack = {
  klass: string;
  name: string;
  only?: Base['template'];
  expect?: (base: Base) => Expectation;
  make: (base: Base, ctx: { tsa: TestTsa; oldTsa: TestTsa }) => Promise<Uint8Array> | Uint8Array;
};

const MODIFIED: Expectation = { intact: false };

/** Every case of the corpus, applied to each base. */
const ATTACKS: Attack[] = [
  // ---- Issue 30, item 1: freed objects ----------------------------------------------------
  {
    klass: 'item 1: freed object',
    name: "page 1's text object freed",
    make: (b) => appendUpdate(b.bytes, { free: [{ num: T.text1 }] }),
  },
  {
    klass: 'item 1: freed object',
    name: "the XObject drawing the signer's values freed",
    make: (b) => appendUpdate(b.bytes, { free: [{ num: b.values }] }),
  },
  {
    klass: 'item 1: freed object',
    name: "page 2's content stream freed",
    make: (b) => appendUpdate(b.bytes, { free: [{ num: T.text2 }] }),
  },
  // ---- item 2: free, then re-create inside a document-timestamp revision ----------------------
  {
    klass: 'item 2: re-created in a timestamp revision',
    name: 'object freed, then re-created with new text by a document-timestamp revision whose field references it',
    make: async (b, { tsa }) => {
      const freed = appendUpdate(b.bytes, { free: [{ num: T.text1 }] });
      return appendLtvRevision(freed, {
        timestamp: { tsa },
        fieldExtra: `/AP << /N ${T.text1} 0 R >>`,
        objects: [
          {
            num: T.text1,
            body: flateStream(
              '',
              `BT /F1 12 Tf 40 800 Td (Contract page 1) Tj ET ${paint('Fee: EUR 40,000')}`,
            ),
          },
        ],
      });
    },
  },
  {
    klass: 'item 2: re-created in a timestamp revision',
    name: "a document-timestamp revision that also rewrites the signer's values XObject its field references",
    make: async (b, { tsa }) =>
      appendLtvRevision(b.bytes, {
        timestamp: { tsa },
        fieldExtra: `/AP << /N ${b.values} 0 R >>`,
        objects: [
          {
            num: b.values,
            body: stream(
              '/Type /XObject /Subtype /Form /BBox [0 0 595 842]',
              'BT /Helvetica 14 Tf 60 500 Td (Mallory) Tj ET',
            ),
          },
        ],
      }),
  },
  // ---- item 3: a dangling reference filled later ---------------------------------------------
  {
    klass: 'item 3: dangling reference filled later',
    name: 'object 900, named by page 1 but missing when sealed, defined by a document-timestamp revision',
    only: 'dangling',
    make: async (b, { tsa }) =>
      appendLtvRevision(b.bytes, {
        timestamp: { tsa },
        fieldExtra: `/AP << /N ${T.dangling} 0 R >>`,
        objects: [{ num: T.dangling, body: flateStream('', paint('Fee: EUR 40,000')) }],
      }),
  },
  {
    klass: 'item 3: dangling reference filled later',
    name: 'object 900 defined by a plain update',
    only: 'dangling',
    make: (b) =>
      appendUpdate(b.bytes, {
        objects: [{ num: T.dangling, body: flateStream('', paint('Fee: EUR 40,000')) }],
      }),
  },
  // ---- item 4: legitimate renewals (intact) ---------------------------------------------------
  {
    klass: 'item 4: archive renewal',
    name: 'DSS update + document timestamp with its widget in page 1 /Annots, /Extensions, /NeedAppearances',
    expect: (b) => ({ intact: true, level: b.level === 'B-LTA' ? 'B-LTA' : 'B-T' }),
    make: async (b, { tsa }) => {
      const dss = await appendLtvRevision(b.bytes, { dssCertificates: [tsa.certDer], extensions: true });
      return appendLtvRevision(dss, {
        timestamp: { tsa },
        widgetOnPage: true,
        needAppearances: true,
        extensions: true,
      });
    },
  },
  {
    klass: 'item 4: archive renewal',
    name: 'a document timestamp alone (invisible field in the form only)',
    expect: (b) => ({ intact: true, level: b.level === 'B-LTA' ? 'B-LTA' : 'B-T' }),
    make: async (b, { tsa }) => appendLtvRevision(b.bytes, { timestamp: { tsa } }),
  },
  // ---- item 5: level inflation ---------------------------------------------------------------
  {
    klass: 'item 5: impossible timestamp',
    name: 'document timestamp dated 2020-01-01, before the seal and its certificate',
    expect: (b) => ({
      intact: true,
      level: b.level,
      timestampIssue: /dated 2020-01-01T00:00:00\.000Z.*earlier than/,
    }),
    make: (b, { oldTsa }) =>
      appendLtvRevision(b.bytes, { timestamp: { tsa: oldTsa, time: new Date('2020-01-01T00:00:00Z') } }),
  },
  // ---- item 7: ambiguous files ---------------------------------------------------------------
  {
    klass: 'item 7: two /Root keys',
    name: 'trailer with the original /Root first, then a forged catalog',
    make: (b) => twoRoots(b, 'original first'),
  },
  {
    klass: 'item 7: two /Root keys',
    name: 'trailer with a forged catalog first, then the original /Root',
    make: (b) => twoRoots(b, 'forged first'),
  },
  {
    klass: 'item 7: update without xref',
    name: "page 1's content redefined in an update with a trailer but no xref",
    make: (b) =>
      appendUpdate(b.bytes, {
        xref: 'none',
        objects: [
          {
            num: T.text1,
            body: flateStream(
              '',
              `BT /F1 12 Tf 40 800 Td (Contract page 1) Tj ET ${paint('Fee: EUR 40,000')}`,
            ),
          },
        ],
      }),
  },
  // ---- Outsider tricks (issue 30 audit): readers and the verifier's parser disagree ----------
  {
    klass: 'outsider: object listed twice in one xref',
    name: "page 1's text listed twice in one xref section: the forged copy first (readers keep it), the signed one last",
    make: (b) =>
      appendUpdate(b.bytes, {
        objects: [{ num: T.text1, body: forgedText1 }],
        relisted: [{ num: T.text1, offset: signedOffset(b.bytes, T.text1) }],
      }),
  },
  {
    klass: 'outsider: object listed twice in one xref',
    name: "hybrid update: its table lists the forged page 1 text, its /XRefStm the signed one (@libpdf/core took the stream's)",
    make: (b) =>
      appendUpdate(b.bytes, {
        xref: 'hybrid',
        objects: [{ num: T.text1, body: forgedText1 }],
        relisted: [{ num: T.text1, offset: signedOffset(b.bytes, T.text1) }],
      }),
  },
  {
    klass: 'outsider: xref offset holds another object',
    name: "page 1's text listed at an object numbered 77 holding the signed text; readers rebuild the xref and find the forged object 6",
    make: (b) =>
      appendUpdate(b.bytes, {
        objects: [
          { num: T.text1, body: forgedText1 },
          { num: T.text1, header: 77, body: signedBody(b.bytes, T.text1) },
        ],
      }),
  },
  {
    klass: 'outsider: xref offset holds another object',
    name: 'page 1 listed as entry 0 of an object stream whose header numbers that entry 77 (poppler: no page 1)',
    make: async (b) =>
      appendUpdate(b.bytes, {
        xref: 'stream',
        packed: [{ num: T.page1, header: 77, body: await page1With(b.bytes, {}) }],
      }),
  },
  {
    klass: 'outsider: generation re-used',
    name: "page 1's text re-written unchanged as generation 1 while page 1 still names 6 0 R (poppler drops it, MuPDF keeps it)",
    make: (b) =>
      appendUpdate(b.bytes, { objects: [{ num: T.text1, gen: 1, body: signedBody(b.bytes, T.text1) }] }),
  },
  {
    klass: 'outsider: generation re-used',
    name: "page 1's text freed, then re-created as generation 1 with new text while page 1 still names 6 0 R",
    make: (b) => {
      const freed = appendUpdate(b.bytes, { free: [{ num: T.text1 }] });
      return appendUpdate(freed, { objects: [{ num: T.text1, gen: 1, body: forgedText1 }] });
    },
  },
  {
    klass: 'outsider: visible widget of a timestamp field',
    name: 'document-timestamp field whose /Kids widget (not in /Annots) is 240 x 30 pt with an appearance saying "Fee: EUR 40,000"',
    make: async (b, { tsa }) => {
      const n = trailerOf(b.bytes).size + 10;
      return appendLtvRevision(b.bytes, {
        timestamp: { tsa },
        fieldExtra: `/Kids [${n} 0 R]`,
        objects: [
          {
            num: n,
            body: `<< /Type /Annot /Subtype /Widget /Rect [55 690 295 720] /P ${T.page1} 0 R /F 4 /AP << /N ${n + 1} 0 R >> >>`,
          },
          {
            num: n + 1,
            body: stream(
              '/Type /XObject /Subtype /Form /BBox [0 0 240 30] /Resources << /Font << /F1 5 0 R >> >>',
              '1 g 0 0 240 30 re f BT 0 g /F1 14 Tf 5 10 Td (Fee: EUR 40,000) Tj ET',
            ),
          },
        ],
      });
    },
  },
  // ---- USF: universal signature forgery -------------------------------------------------------
  {
    klass: 'USF',
    name: 'signature dictionary redefined without /Contents and /ByteRange, page painted over',
    make: async (b) => {
      const sig = await dictOf(b.bytes, b.sigDict);
      const n = trailerOf(b.bytes).size;
      return appendUpdate(b.bytes, {
        objects: [
          { num: b.sigDict, body: withEntries(sig, { Contents: undefined, ByteRange: undefined }) },
          { num: n, body: stream('', paint('Fee: EUR 40,000')) },
          { num: T.page1, body: await page1With(b.bytes, { Contents: await contentsPlus(b.bytes, n) }) },
        ],
      });
    },
  },
  {
    klass: 'USF',
    name: 'signature dictionary redefined with an empty /Contents and a null /ByteRange',
    make: async (b) => {
      const sig = await dictOf(b.bytes, b.sigDict);
      return appendUpdate(b.bytes, {
        objects: [{ num: b.sigDict, body: withEntries(sig, { Contents: '<>', ByteRange: 'null' }) }],
      });
    },
  },
  {
    klass: 'USF',
    name: 'signature dictionary redefined with /ByteRange [0 0 0 0]',
    make: async (b) => {
      const sig = await dictOf(b.bytes, b.sigDict);
      return appendUpdate(b.bytes, {
        objects: [{ num: b.sigDict, body: withEntries(sig, { ByteRange: '[0 0 0 0]' }) }],
      });
    },
  },
  // ---- ISA: incremental saving attack ---------------------------------------------------------
  {
    klass: 'ISA',
    name: 'new content stream added to page 1 (classic xref)',
    make: async (b) => {
      const n = trailerOf(b.bytes).size;
      return appendUpdate(b.bytes, {
        objects: [
          { num: n, body: stream('', paint('Fee: EUR 40,000')) },
          { num: T.page1, body: await page1With(b.bytes, { Contents: await contentsPlus(b.bytes, n) }) },
        ],
      });
    },
  },
  {
    klass: 'ISA',
    name: "page 1's text object rewritten in place",
    make: (b) =>
      appendUpdate(b.bytes, {
        objects: [
          {
            num: T.text1,
            body: flateStream(
              '',
              `BT /F1 12 Tf 40 800 Td (Contract page 1) Tj ET ${paint('Fee: EUR 40,000')}`,
            ),
          },
        ],
      }),
  },
  {
    klass: 'ISA',
    name: 'objects appended after the last %%EOF with no xref and no trailer',
    make: (b) => {
      const tail = `${T.text1} 0 obj\n${flateStream('', paint('Fee: EUR 40,000'))}\nendobj\n`;
      return new Uint8Array(Buffer.concat([Buffer.from(b.bytes), Buffer.from(tail, 'latin1')]));
    },
  },
  {
    klass: 'ISA',
    name: 'page 1 redefined in an update whose xref is a stream',
    make: async (b) => {
      const n = trailerOf(b.bytes).size;
      return appendUpdate(b.bytes, {
        xref: 'stream',
        objects: [
          { num: n, body: stream('', paint('Fee: EUR 40,000')) },
          { num: T.page1, body: await page1With(b.bytes, { Contents: await contentsPlus(b.bytes, n) }) },
        ],
      });
    },
  },
  {
    klass: 'ISA',
    name: 'a third page added',
    make: async (b) => {
      const n = trailerOf(b.bytes).size;
      const pages = await dictOf(b.bytes, T.pages);
      return appendUpdate(b.bytes, {
        objects: [
          { num: n, body: stream('', 'BT /F1 14 Tf 60 700 Td (Addendum: EUR 40,000) Tj ET') },
          {
            num: n + 1,
            body: `<< /Type /Page /Parent ${T.pages} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${T.font} 0 R >> >> /Contents ${n} 0 R >>`,
          },
          {
            num: T.pages,
            body: withEntries(pages, { Kids: `[${T.page1} 0 R ${T.page2} 0 R ${n + 1} 0 R]`, Count: '3' }),
          },
        ],
      });
    },
  },
  // ---- SWA: signature wrapping -----------------------------------------------------------------
  {
    klass: 'SWA',
    name: '/ByteRange rewritten to wrap a relocated second range, new objects in the freed gap',
    make: (b) => swa(b),
  },
  {
    klass: 'SWA',
    name: 'objects hidden in the /Contents padding after the CMS',
    make: (b) => {
      const text = Buffer.from(b.bytes).toString('latin1');
      const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
      const gapEnd = Number(m[3]) - 1; // the closing '>'
      const inject = `>\n${T.text1} 0 obj\n${stream('', paint('Fee: EUR 40,000'))}\nendobj\n<`;
      const out = Buffer.from(b.bytes);
      out.write(inject, gapEnd - inject.length - 2, 'latin1');
      return new Uint8Array(out);
    },
  },
  // ---- Shadow attacks ------------------------------------------------------------------------
  {
    klass: 'shadow hide',
    name: 'the white cover over "Fee: EUR 40,000" emptied',
    only: 'contract',
    make: (b) =>
      appendUpdate(b.bytes, {
        objects: [{ num: T.cover, body: stream('/Type /XObject /Subtype /Form /BBox [0 0 595 842]', '') }],
      }),
  },
  {
    klass: 'shadow replace',
    name: 'the font replaced (same object number)',
    make: (b) =>
      appendUpdate(b.bytes, {
        objects: [
          {
            num: T.font,
            body: '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
          },
        ],
      }),
  },
  {
    klass: 'shadow replace',
    name: "the signer's values XObject replaced",
    make: (b) =>
      appendUpdate(b.bytes, {
        objects: [
          {
            num: b.values,
            body: stream(
              '/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >>',
              'BT /F1 14 Tf 60 560 Td (Mallory Example) Tj ET',
            ),
          },
        ],
      }),
  },
  {
    klass: 'shadow hide-and-replace',
    name: "page 1's /Contents pointed at the unused signed stream",
    only: 'contract',
    make: async (b) =>
      appendUpdate(b.bytes, {
        objects: [{ num: T.page1, body: await page1With(b.bytes, { Contents: `${T.shadow} 0 R` }) }],
      }),
  },
  // ---- EAA / SSA -----------------------------------------------------------------------------
  {
    klass: 'EAA',
    name: 'FreeText annotation showing "EUR 40,000" on page 1',
    make: async (b) =>
      annotate(b, '/Subtype /FreeText /Rect [55 690 295 720] /Contents (EUR 40,000) /DA (/Helv 14 Tf 0 g)'),
  },
  {
    klass: 'EAA',
    name: 'Stamp annotation with an appearance painting over the fee',
    make: async (b) => {
      const n = trailerOf(b.bytes).size + 10;
      return annotate(b, `/Subtype /Stamp /Rect [55 690 295 720] /AP << /N ${n} 0 R >>`, [
        {
          num: n,
          body: stream(
            '/Type /XObject /Subtype /Form /BBox [0 0 240 30] /Resources << /Font << /F1 5 0 R >> >>',
            '1 g 0 0 240 30 re f BT 0 g /F1 14 Tf 5 10 Td (Fee: EUR 40,000) Tj ET',
          ),
        },
      ]);
    },
  },
  {
    klass: 'EAA',
    name: 'a hidden-flag-free widget with an appearance added to page 1 (no field)',
    make: async (b) => {
      const n = trailerOf(b.bytes).size + 10;
      return annotate(b, `/Subtype /Widget /Rect [55 690 295 720] /AP << /N ${n} 0 R >>`, [
        {
          num: n,
          body: stream('/Type /XObject /Subtype /Form /BBox [0 0 240 30]', '1 g 0 0 240 30 re f'),
        },
      ]);
    },
  },
  {
    klass: 'SSA',
    name: 'visible signature field whose appearance paints "EUR 40,000", timestamped',
    make: async (b, { tsa }) => {
      const n = trailerOf(b.bytes).size + 10;
      return appendLtvRevision(b.bytes, {
        timestamp: { tsa },
        widgetOnPage: true,
        rect: '[55 690 295 720]',
        fieldExtra: `/AP << /N ${n} 0 R >>`,
        objects: [
          {
            num: n,
            body: stream(
              '/Type /XObject /Subtype /Form /BBox [0 0 240 30] /Resources << /Font << /F1 5 0 R >> >>',
              '1 g 0 0 240 30 re f BT 0 g /F1 14 Tf 5 10 Td (Fee: EUR 40,000) Tj ET',
            ),
          },
        ],
      });
    },
  },
  {
    klass: 'SSA',
    name: 'invisible timestamp field whose /AP stream is also drawn by page 1',
    make: async (b, { tsa }) => {
      const n = trailerOf(b.bytes).size + 10;
      const form = stream(
        '/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >>',
        `${paint('Fee: EUR 40,000').replace('/F1 14', '/F1 14')}`,
      );
      const page = await dictOf(b.bytes, T.page1);
      const resources = page.get('Resources') as PdfDict;
      const xobjects = resources.get('XObject') as PdfDict;
      return appendLtvRevision(b.bytes, {
        timestamp: { tsa },
        fieldExtra: `/AP << /N ${n} 0 R >>`,
        objects: [
          { num: n, body: form },
          { num: n + 1, body: stream('', '/Sneaky Do') },
          {
            num: T.page1,
            body: withEntries(page, {
              Resources: withEntries(resources, { XObject: withEntries(xobjects, { Sneaky: `${n} 0 R` }) }),
              Contents: await contentsPlus(b.bytes, n + 1),
            }),
          },
        ],
      });
    },
  },
  // ---- Structure: duplicate roots, object streams, hybrid xref --------------------------------
  {
    klass: 'duplicate root',
    name: 'trailer /Root moved to a second catalog with its own page tree',
    make: async (b) => {
      const n = trailerOf(b.bytes).size;
      const cat = await dictOf(b.bytes, T.catalog);
      return appendUpdate(b.bytes, {
        root: `${n} 0 R`,
        objects: [
          { num: n, body: withEntries(cat, { Pages: `${n + 1} 0 R` }) },
          { num: n + 1, body: `<< /Type /Pages /Kids [${n + 2} 0 R ${T.page2} 0 R] /Count 2 >>` },
          {
            num: n + 2,
            body: `<< /Type /Page /Parent ${n + 1} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${T.font} 0 R >> >> /Contents ${T.shadow} 0 R >>`,
          },
        ],
      });
    },
  },
  {
    klass: 'object stream',
    name: 'page 1 redefined inside an object stream',
    make: async (b) => {
      const n = trailerOf(b.bytes).size;
      return appendUpdate(b.bytes, {
        xref: 'stream',
        objects: [{ num: n, body: stream('', paint('Fee: EUR 40,000')) }],
        packed: [
          { num: T.page1, body: await page1With(b.bytes, { Contents: await contentsPlus(b.bytes, n) }) },
        ],
      });
    },
  },
  {
    klass: 'hybrid xref',
    name: "page 1's text redefined only in the /XRefStm stream of a hybrid update",
    make: (b) =>
      appendUpdate(b.bytes, {
        xref: 'hybrid',
        objects: [
          {
            num: T.text1,
            body: flateStream(
              '',
              `BT /F1 12 Tf 40 800 Td (Contract page 1) Tj ET ${paint('Fee: EUR 40,000')}`,
            ),
          },
        ],
      }),
  },
];

/** Where the template wrote object `num` (its first definition in the file). */
export function signedOffset(bytes: Uint8Array, num: number): number {
  return Buffer.from(bytes).toString('latin1').indexOf(`\n${num} 0 obj`) + 1;
}

/** The template's source of object `num`, between `obj` and `endobj`. */
function signedBody(bytes: Uint8Array, num: number): string {
  const text = Buffer.from(bytes).toString('latin1');
  const at = signedOffset(bytes, num);
  return text.slice(text.indexOf('obj', at) + 3, text.indexOf('endobj', at)).replace(/^\r?\n|\r?\n$/g, '');
}

/** Item 7: a trailer naming /Root twice, the second catalog showing the unused signed stream. */
async function twoRoots(b: Base, order: 'original first' | 'forged first'): Promise<Uint8Array> {
  const n = trailerOf(b.bytes).size;
  const cat = await dictOf(b.bytes, T.catalog);
  const original = `${T.catalog} 0 R`;
  const forged = `${n} 0 R`;
  return appendUpdate(b.bytes, {
    root: order === 'original first' ? original : forged,
    trailerExtra: `/Root ${order === 'original first' ? forged : original}`,
    objects: [
      { num: n, body: withEntries(cat, { Pages: `${n + 1} 0 R` }) },
      { num: n + 1, body: `<< /Type /Pages /Kids [${n + 2} 0 R ${T.page2} 0 R] /Count 2 >>` },
      {
        num: n + 2,
        body: `<< /Type /Page /Parent ${n + 1} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${T.font} 0 R >> >> /Contents ${T.shadow} 0 R >>`,
      },
    ],
  });
}

/** Adds an annotation to page 1 in a plain update. */
async function annotate(b: Base, entries: string, extra: { num: number; body: string }[] = []) {
  const n = trailerOf(b.bytes).size;
  const page = await dictOf(b.bytes, T.page1);
  const annots = page.get('Annots');
  const list = annots ? pdfSource(annots).replace(/^\[|\]$/g, '') : '';
  return appendUpdate(b.bytes, {
    objects: [
      { num: n, body: `<< /Type /Annot ${entries} /P ${T.page1} 0 R /F 4 >>` },
      { num: T.page1, body: withEntries(page, { Annots: `[${list} ${n} 0 R]` }) },
      ...extra,
    ],
  });
}

/**
 * Signature wrapping (Mladenov et al. 2019, SWA): the seal's /ByteRange is rewritten so that its
 * second range points to a copy of the signed tail moved to the end of the file, and the space
 * the tail held carries new objects and an xref that uses them.
 */
function swa(b: Base): Uint8Array {
  const text = Buffer.from(b.bytes).toString('latin1');
  const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
  const [, , o2, l2] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
  const tail = text.slice(o2, o2 + l2);
  const malicious = `\n${T.text1} 0 obj\n${stream('', paint('Fee: EUR 40,000'))}\nendobj\n`;
  const head = text.slice(0, o2);
  const moved = head.length + malicious.length;
  const range = `/ByteRange [0 ${m[2]} ${moved} ${l2}]`;
  const rewritten = head.replace(m[0], range.padEnd(m[0].length, ' '));
  return new Uint8Array(Buffer.from(rewritten + malicious + tail, 'latin1'));
}

/** Seals the bases and builds every case (about 60 files). */
export async function buildCorpus(): Promise<Corpus> {
  const identity = await corpusIdentity();
  const tsa = createTestTsa();
  const oldTsa = createTestTsa('Backdating Time Stamping Unit', {
    notBefore: new Date('2019-01-01T00:00:00Z'),
  });
  const bases: Base[] = [];
  for (const template of ['contract', 'dangling'] as const)
    for (const level of ['B-B', 'B-LTA'] as const) bases.push(await seal(template, level, identity, tsa));
  const cases: CorpusCase[] = [];
  for (const attack of ATTACKS) {
    for (const base of bases) {
      if (base.template !== (attack.only ?? 'contract')) continue;
      cases.push({
        name: `${attack.name} (${base.level})`,
        klass: attack.klass,
        base,
        bytes: await attack.make(base, { tsa, oldTsa }),
        expect: attack.expect?.(base) ?? MODIFIED,
      });
    }
  }
  return { identity, tsa, cases, bases };
}
