/**
 * The rendering guard (issue 40 item 4) and pdf.js's view of a file (issue 40 item 1).
 *
 * The guard is the verifier's last check before an `intact` verdict: it draws every page of the
 * signed revision and of the whole file with the product's own pdf.js (the renderer that makes
 * the page images recipients see) and compares what a reader would see, outside the rectangles
 * where the difference analysis allowed a change. Any other difference means the analysis missed
 * something. It compares, page by page, stopping at the first difference:
 *
 * 1. the page count, then each page's box (`view`: CropBox within MediaBox), `/Rotate` and
 *    `/UserUnit`, as pdf.js resolves them (inherited through every `/Parent`);
 * 2. the text pdf.js extracts (getTextContent, so white or hidden-by-drawing text counts), as a
 *    multiset of (string, origin rounded to 1 pt, font size rounded to 0.1 pt), leaving out the
 *    items whose origin lies in an allowed area;
 * 3. the pixels of both pages drawn at LOW_DPI with annotations as a viewer shows them
 *    (AnnotationMode.ENABLE: appearance streams drawn, /F Hidden and NoView respected), with no
 *    tolerance outside the allowed areas widened by LOW_MARGIN_PX. pdf.js's drawing is
 *    deterministic for the same operators in the same process, so identical content gives
 *    identical pixels whatever the object layout (tested with qpdf and mutool rewrites).
 * 4. on a page with allowed areas, the band around them again at HIGH_DPI (only that region is
 *    drawn), masked by the areas widened by one pixel: at LOW_DPI the margin is about 5 pt, at
 *    HIGH_DPI a change reaching 1 pt past an area is seen. pdf.js clips every annotation's
 *    appearance to its /Rect, so an allowed widget never draws past its area.
 *
 * Pixels are compared in colour (RGBA), not grey: converting costs time and only loses changes.
 *
 * Bounds: at most `maxPages` pages and `timeMs` of wall time. The time is checked between the
 * steps of each page and while a page is drawn (the render task is cancelled), and the steps
 * pdf.js cannot cancel (opening, text extraction) race a timer; the documents are then destroyed,
 * which ends their work. pdf.js runs in the calling thread and its worker code continues in
 * microtasks, so a timer cannot interrupt one step: a step can overrun the limit (a page of 40,000
 * paths: its text extraction alone takes ~450 ms, and with `timeMs` 300 the guard answered after
 * 0.4 to 1.5 s depending on the machine's load). The document pool's own time limit is the hard
 * bound. Every pdf.js document is
 * destroyed on every path (`guardDocumentsOpen` counts the open ones), and each canvas's surface is
 * freed as soon as its pixels are read (napi-rs canvases are native memory the collector does not
 * see: without it the resident size grew ~1 MiB a call until a collection).
 *
 * Speed, measured on the 2-core machine shared with other work (verify-guard.test.ts logs it): a
 * 20-page PDF of 31 text lines a page (~1,900 glyphs a page) against its rewrite takes 620 to 850
 * ms of CPU (690 to 1,100 ms wall when the machine is quiet); an allowed area adds ~0 (only the
 * band is drawn again). Per file and 20 pages: text extraction ~90 ms, operator lists ~50 ms,
 * drawing at 36 dpi ~320 ms and rasterising ~120 ms; at 18 dpi the last two are 240 and 85 ms:
 * the cost is per glyph (pdf.js paints each glyph as a path through @napi-rs/canvas, ~40% of the
 * profile in native canvas calls), not per pixel, so a lower resolution buys little.
 * Comparing pdf.js operator lists to skip drawing identical pages is NOT sound as such: image and
 * pattern ids (`img_p0_1`) are the same names in both documents for different data, and glyph
 * outlines live in commonObjs, outside the lists; it would need every referenced object
 * fingerprinted (images, fonts with their glyph paths, Type3 procedures, patterns) plus the
 * document's optional-content configuration. Left as the next step if the verifier's budget needs it.
 */

import { createCanvas } from '@napi-rs/canvas';
import type { PageViewport, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { loadPdfJs } from '../ingest/render.ts';

/** A rectangle on a page, in that page's default user space (PDF points, [x1 y1 x2 y2]), where a change was allowed by the analysis (e.g. a later visible signature's widget). Pages are numbered from 1. */
export interface AllowedArea {
  page: number;
  rect: [number, number, number, number];
}

export interface GuardLimits {
  maxPages: number;
  timeMs: number;
}

export type GuardResult =
  | { status: 'same'; pagesCompared: number }
  | {
      status: 'differs';
      /** 1-based; 0 when the difference is the whole file (it cannot be opened). */
      page: number;
      what: 'pages' | 'text' | 'rendering' | 'unreadable';
      detail: string;
    }
  | { status: 'skipped'; pagesCompared: number; reason: string };

const DEFAULT_LIMITS: GuardLimits = { maxPages: 50, timeMs: 1500 };
/** The whole page is compared at this resolution (a Letter page is 318 × 412 pixels). */
const LOW_DPI = 36;
const LOW_MARGIN_PX = 2;
/** The band around allowed areas is compared at this one: 1 pt is 3 pixels. */
const HIGH_DPI = 216;
const HIGH_MARGIN_PX = 1;
/** Most pixels one drawing may have (a hostile /UserUnit or page size lowers the scale instead). */
const MAX_PIXELS = 4_000_000;

type PdfJs = Awaited<ReturnType<typeof loadPdfJs>>;

/** pdf.js documents opened here and not yet destroyed. */
let openDocuments = 0;

/** How many pdf.js documents this module holds open right now (0 between calls: none leaks). */
export function guardDocumentsOpen(): number {
  return openDocuments;
}

interface Opened {
  /** Settles with the document, or with why pdf.js could not open it (`password` when it asks for one). */
  ready: Promise<{ doc: PDFDocumentProxy; error: null } | { doc: null; error: 'password' | 'damaged' }>;
  /** Destroys the document (or stops its loading); every path calls it, more than once is fine. */
  destroy(): Promise<void>;
}

function open({ pdfjs, assets }: PdfJs, bytes: Uint8Array): Opened {
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    ...assets,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  openDocuments++;
  let destroyed: Promise<void> | undefined;
  const destroy = () => {
    destroyed ??= task.destroy().finally(() => {
      openDocuments--;
    });
    return destroyed;
  };
  const ready = task.promise.then(
    (doc) => ({ doc, error: null }) as const,
    async (e: unknown) => {
      await destroy();
      const password = e instanceof Error && e.name === 'PasswordException';
      return { doc: null, error: password ? 'password' : 'damaged' } as const;
    },
  );
  return { ready, destroy };
}

/**
 * The guard's wall-time limit: `over()` between steps, `race(p)` around a step pdf.js cannot
 * cancel (opening, text extraction), which rejects with OverTime when the limit passes; the
 * documents are destroyed afterwards, which stops the work pdf.js still does for them.
 */
function deadline(timeMs: number) {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OverTime()), timeMs);
  });
  expired.catch(() => {});
  return {
    over: () => performance.now() - started > timeMs,
    race<T>(step: Promise<T>): Promise<T> {
      step.catch(() => {}); // when the limit wins, the step's own failure is not wanted
      return Promise.race([step, expired]);
    },
    clear: () => clearTimeout(timer),
  };
}

type Deadline = ReturnType<typeof deadline>;

class OverTime extends Error {}

/**
 * Renders each page of `signed` (the signed revision's bytes) and `whole` (the whole file) with
 * pdf.js at a low resolution and compares page count, page size/rotation, text (string and
 * position) and pixels outside the allowed areas.
 */
export async function renderingGuard(
  signed: Uint8Array,
  whole: Uint8Array,
  allowed: AllowedArea[],
  limits: Partial<GuardLimits> = {},
): Promise<GuardResult> {
  const { maxPages, timeMs } = { ...DEFAULT_LIMITS, ...limits };
  const time = deadline(timeMs);
  const pdfjs = await loadPdfJs();
  const files = [open(pdfjs, signed), open(pdfjs, whole)] as const;
  let page = 0;
  try {
    const [a, b] = await time.race(Promise.all([files[0].ready, files[1].ready]));
    if (!b.doc) {
      const why = b.error === 'password' ? 'is encrypted (pdf.js asks for a password)' : 'cannot be opened';
      return differs(
        0,
        'unreadable',
        `The whole file ${why}${a.doc ? ' while the signed revision opens' : ''}`,
      );
    }
    if (!a.doc) return differs(0, 'unreadable', 'pdf.js cannot open the signed revision');
    const [infoA, infoB] = await time.race(Promise.all([encryptionOf(a.doc), encryptionOf(b.doc)]));
    if (infoA !== infoB)
      return differs(
        0,
        'unreadable',
        `The whole file's encryption (${infoB}) is not the signed revision's (${infoA})`,
      );
    const count = a.doc.numPages;
    if (b.doc.numPages !== count)
      return differs(
        Math.min(count, b.doc.numPages) + 1,
        'pages',
        `The signed revision has ${count} page(s), the whole file ${b.doc.numPages}`,
      );
    const last = Math.min(count, maxPages);
    for (page = 1; page <= last; page++) {
      if (time.over()) throw new OverTime();
      // A rectangle that is not four finite numbers allows nothing (every change there is seen).
      const areas = allowed
        .filter((x) => x.page === page && x.rect.length === 4 && x.rect.every(Number.isFinite))
        .map((x) => normalise(x.rect));
      const [pa, pb] = await time.race(Promise.all([a.doc.getPage(page), b.doc.getPage(page)]));
      try {
        const found = await comparePage(pdfjs, pa, pb, areas, time);
        if (found) return differs(page, found.what, found.detail);
      } finally {
        pa.cleanup();
        pb.cleanup();
      }
    }
    if (count > maxPages)
      return {
        status: 'skipped',
        pagesCompared: last,
        reason: `the file has ${count} pages; the first ${last} were compared`,
      };
    return { status: 'same', pagesCompared: count };
  } catch (e) {
    // pdf.js failing on a page (it recovers from most damage, stopAtErrors is off): what a reader
    // shows there is not known, so not the same. Untested: no file made pdf.js 6 throw here.
    if (!(e instanceof OverTime) && !isCancelled(e)) {
      const why = e instanceof Error ? e.message.slice(0, 200) : String(e);
      return differs(
        page,
        'unreadable',
        `pdf.js failed ${page === 0 ? 'reading the files' : `on page ${page}`}: ${why}`,
      );
    }
    return {
      status: 'skipped',
      pagesCompared: Math.max(0, page - 1),
      reason: `stopped after ${timeMs / 1000} s ${page === 0 ? 'opening the files' : `at page ${page}`}`,
    };
  } finally {
    time.clear();
    await Promise.all(files.map((f) => f.destroy()));
  }
}

const differs = (page: number, what: 'pages' | 'text' | 'rendering' | 'unreadable', detail: string) =>
  ({ status: 'differs', page, what, detail }) as const;

const isCancelled = (e: unknown) => e instanceof Error && e.name === 'RenderingCancelledException';

async function encryptionOf(doc: PDFDocumentProxy): Promise<string> {
  const { info } = await doc.getMetadata();
  const filter = (info as { EncryptFilterName?: string | null }).EncryptFilterName;
  return filter ? `encrypted, ${filter}` : 'none';
}

type Rect = [number, number, number, number];

const normalise = ([x1, y1, x2, y2]: readonly number[]): Rect => [
  Math.min(x1!, x2!),
  Math.min(y1!, y2!),
  Math.max(x1!, x2!),
  Math.max(y1!, y2!),
];

interface Found {
  what: 'pages' | 'text' | 'rendering';
  detail: string;
}

async function comparePage(
  pdfjs: PdfJs,
  pa: PDFPageProxy,
  pb: PDFPageProxy,
  areas: Rect[],
  time: Deadline,
): Promise<Found | null> {
  const shape = (p: PDFPageProxy) =>
    `box [${p.view.join(' ')}], rotation ${p.rotate}, user unit ${p.userUnit}`;
  if (shape(pa) !== shape(pb))
    return { what: 'pages', detail: `The signed page has ${shape(pa)}; the file's has ${shape(pb)}` };

  const [ta, tb] = await time.race(Promise.all([textOf(pa, areas), textOf(pb, areas)]));
  const text = compareMultisets(ta, tb);
  if (text) return { what: 'text', detail: text };
  if (time.over()) throw new OverTime();

  const base = pa.getViewport({ scale: 1 });
  const fit = Math.sqrt(MAX_PIXELS / Math.max(1, base.width * base.height));
  const low = Math.min(LOW_DPI / 72, fit);
  const whole = await comparePixels(pdfjs, pa, pb, low, null, areas, LOW_MARGIN_PX, time);
  if (whole) return whole;
  if (areas.length === 0) return null;
  if (time.over()) throw new OverTime();

  // The band the low resolution masked (areas + its margin + a pixel), drawn again at HIGH_DPI.
  const pad = (LOW_MARGIN_PX + 1) / (low * pa.userUnit);
  const band = areas.reduce<Rect>(
    (u, r) => [Math.min(u[0], r[0]), Math.min(u[1], r[1]), Math.max(u[2], r[2]), Math.max(u[3], r[3])],
    [Infinity, Infinity, -Infinity, -Infinity],
  );
  const region: Rect = [band[0] - pad, band[1] - pad, band[2] + pad, band[3] + pad];
  const regionArea = (region[2] - region[0]) * (region[3] - region[1]) * pa.userUnit ** 2;
  const high = Math.min(HIGH_DPI / 72, Math.sqrt(MAX_PIXELS / Math.max(1, regionArea)));
  return comparePixels(pdfjs, pa, pb, high, region, areas, HIGH_MARGIN_PX, time);
}

async function textOf(page: PDFPageProxy, areas: Rect[]): Promise<Map<string, number>> {
  const content = await page.getTextContent();
  const items = new Map<string, number>();
  for (const item of content.items) {
    if (!('str' in item) || item.str === '') continue;
    const [, , c, d, e, f] = item.transform as number[];
    if (areas.some((r) => e! >= r[0] && e! <= r[2] && f! >= r[1] && f! <= r[3])) continue;
    const size = Math.round(Math.hypot(c!, d!) * 10) / 10;
    const key = `${JSON.stringify(item.str)} at (${Math.round(e!)}, ${Math.round(f!)}) size ${size}`;
    items.set(key, (items.get(key) ?? 0) + 1);
  }
  return items;
}

function compareMultisets(signed: Map<string, number>, whole: Map<string, number>): string | null {
  const short = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s);
  for (const [key, n] of whole)
    if ((signed.get(key) ?? 0) < n) return short(`Text ${key} is in the file, not in the signed revision`);
  for (const [key, n] of signed)
    if ((whole.get(key) ?? 0) < n) return short(`Text ${key} is in the signed revision, not in the file`);
  return null;
}

/**
 * Draws both pages at `scale` (the whole page, or only `region` in user space) and compares every
 * pixel outside the allowed areas widened by `margin` pixels. Null when they are the same.
 */
async function comparePixels(
  { pdfjs }: PdfJs,
  pa: PDFPageProxy,
  pb: PDFPageProxy,
  scale: number,
  region: Rect | null,
  areas: Rect[],
  margin: number,
  time: Deadline,
): Promise<Found | null> {
  let viewport = pa.getViewport({ scale });
  let width = Math.max(1, Math.ceil(viewport.width));
  let height = Math.max(1, Math.ceil(viewport.height));
  if (region) {
    const [x1, y1, x2, y2] = deviceRect(viewport, region, 0);
    viewport = pa.getViewport({ scale, offsetX: -x1, offsetY: -y1 });
    width = Math.max(1, x2 - x1);
    height = Math.max(1, y2 - y1);
  }
  const draw = async (page: PDFPageProxy) => {
    const canvas = createCanvas(width, height);
    const task = page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      viewport,
      background: 'rgb(255,255,255)',
      annotationMode: pdfjs.AnnotationMode.ENABLE,
    });
    // Between drawing steps (pdf.js yields about every 15 ms): stop when over time, else let the
    // event loop run (a timer, the other page) before going on.
    task.onContinue = (go: () => void) => {
      if (time.over()) task.cancel();
      else setImmediate(go);
    };
    await task.promise;
    const { data } = canvas.getContext('2d').getImageData(0, 0, width, height);
    // Frees the drawing surface now: its native memory is not counted by the garbage collector.
    canvas.width = 1;
    canvas.height = 1;
    return data;
  };
  const [da, db] = await time.race(Promise.all([draw(pa), draw(pb)]));
  const mask = new Uint8Array(width * height);
  for (const area of areas) {
    const [x1, y1, x2, y2] = deviceRect(viewport, area, margin);
    for (let y = Math.max(0, y1); y < Math.min(height, y2); y++)
      mask.fill(1, y * width + Math.max(0, x1), y * width + Math.min(width, x2));
  }
  const wa = new Uint32Array(da.buffer, da.byteOffset, width * height);
  const wb = new Uint32Array(db.buffer, db.byteOffset, width * height);
  let count = 0;
  let first = -1;
  for (let i = 0; i < wa.length; i++) {
    if (wa[i] !== wb[i] && mask[i] === 0) {
      if (first < 0) first = i;
      count++;
    }
  }
  if (count === 0) return null;
  const [x, y] = viewport.convertToPdfPoint(
    (first % width) + 0.5,
    Math.floor(first / width) + 0.5,
  ) as number[];
  const dpi = Math.round(scale * 72);
  return {
    what: 'rendering',
    detail: `${count} pixel(s) differ at ${dpi} dpi outside the allowed areas, the first at (${Math.round(x!)}, ${Math.round(y!)}) pt`,
  };
}

/** A user-space rectangle as whole device pixels: every pixel it touches, widened by `margin`. */
function deviceRect(viewport: PageViewport, rect: Rect, margin: number): Rect {
  const [ax, ay] = viewport.convertToViewportPoint(rect[0], rect[1]) as number[];
  const [bx, by] = viewport.convertToViewportPoint(rect[2], rect[3]) as number[];
  const [x1, y1, x2, y2] = normalise([ax!, ay!, bx!, by!]);
  return [Math.floor(x1) - margin, Math.floor(y1) - margin, Math.ceil(x2) + margin, Math.ceil(y2) + margin];
}

/** What pdf.js makes of a file, for cross-checking another parser: null when pdf.js cannot open it. */
export interface PdfjsView {
  numPages: number;
  pages: {
    view: number[];
    rotate: number;
    userUnit: number;
    annotations: {
      subtype: string;
      rect: number[];
      fieldName?: string;
      fieldType?: string;
      hidden: boolean;
      noView: boolean;
      hasAppearance: boolean;
    }[];
  }[];
  /** From getFieldObjects(): field name → values; null when no form. */
  fields: Record<string, unknown[]> | null;
  encrypted: boolean;
}

const HIDDEN = 2;
const NO_VIEW = 32;

interface AnnotationData {
  subtype: string;
  rect: number[];
  fieldName?: string;
  fieldType?: string;
  annotationFlags: number;
  hasAppearance: boolean;
}

/** What pdf.js makes of a file (every page, every annotation whatever its flags, the form's fields). */
export async function pdfjsView(bytes: Uint8Array): Promise<PdfjsView | null> {
  const opened = open(await loadPdfJs(), bytes);
  try {
    const { doc } = await opened.ready;
    if (!doc) return null;
    const pages: PdfjsView['pages'] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const annotations = (await page.getAnnotations({ intent: 'any' })) as AnnotationData[];
      pages.push({
        view: [...page.view],
        rotate: page.rotate,
        userUnit: page.userUnit,
        annotations: annotations.map((a) => ({
          subtype: a.subtype,
          rect: [...a.rect],
          ...(a.fieldName === undefined ? {} : { fieldName: a.fieldName }),
          ...(a.fieldType === undefined ? {} : { fieldType: a.fieldType }),
          hidden: (a.annotationFlags & HIDDEN) !== 0,
          noView: (a.annotationFlags & NO_VIEW) !== 0,
          hasAppearance: a.hasAppearance,
        })),
      });
      page.cleanup();
    }
    // pdf.js 6 answers a Map (its types still say a record).
    const found = (await doc.getFieldObjects()) as Map<string, unknown[]> | Record<string, unknown[]> | null;
    const fields = found instanceof Map ? Object.fromEntries(found) : found;
    return { numPages: doc.numPages, pages, fields, encrypted: (await encryptionOf(doc)) !== 'none' };
  } finally {
    await opened.destroy();
  }
}
