/// <reference path="./pdfjs-worker.d.ts" />
/**
 * Server-side page rendering with pdf.js (legacy build, for Node) onto @napi-rs/canvas.
 *
 * pdf.js runs its worker code on the main thread (importing the worker bundle registers it, so
 * no worker file is resolved at run time). Standard fonts, CMaps and wasm decoders come from the
 * pdfjs-dist package's own folders. pdf.js 6 no longer compiles fonts with `eval`, so there is no
 * `isEvalSupported` switch left to turn off.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDF } from '@libpdf/core';
import { createCanvas } from '@napi-rs/canvas';
import { DocumentInputError } from './errors.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let pdfjsPromise:
  | Promise<{ pdfjs: PdfJs; assets: Record<'standardFontDataUrl' | 'cMapUrl' | 'wasmUrl', string> }>
  | undefined;

/** Loads pdf.js once, lazily (it is large and only rendering needs it). */
export function loadPdfJs() {
  pdfjsPromise ??= (async () => {
    await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    return {
      pdfjs,
      assets: {
        standardFontDataUrl: join(root, 'standard_fonts') + '/',
        cMapUrl: join(root, 'cmaps') + '/',
        wasmUrl: join(root, 'wasm') + '/',
      },
    };
  })();
  return pdfjsPromise;
}

import { checkRenderArgs, DEFAULT_SCALE, MAX_PIXELS, MAX_SIDE, type RenderOptions } from './render-args.ts';

export { checkRenderArgs, type RenderOptions };

/** A PDF parsed once by pdf.js, to draw any number of its pages. */
export interface RenderableDocument {
  numPages: number;
  /** One page (1-based) as PNG; see `renderPageInProcess`. */
  render(pageNumber: number, opts?: RenderOptions): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * Parses a PDF for rendering, in the calling thread. With `owned`, pdf.js may take the buffer over
 * (detach it): the caller must not use `pdf` afterwards; otherwise pdf.js gets a copy.
 */
export async function openForRender(pdf: Uint8Array, owned = false): Promise<RenderableDocument> {
  const { pdfjs, assets } = await loadPdfJs();
  const task = pdfjs.getDocument({
    data: owned ? pdf : pdf.slice(),
    ...assets,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (e) {
    await task.destroy();
    throw new DocumentInputError('invalid_document', 'The PDF could not be opened for rendering', {
      cause: e,
    });
  }
  return {
    numPages: doc.numPages,
    async render(pageNumber, opts = {}) {
      checkRenderArgs(pageNumber, opts);
      if (pageNumber > doc.numPages)
        throw new RangeError(`Page ${pageNumber} does not exist; the document has ${doc.numPages} page(s)`);
      return drawPage(pdfjs, await doc.getPage(pageNumber), opts);
    },
    close: () => task.destroy(),
  };
}

type PdfJsPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;

async function drawPage(pdfjs: PdfJs, page: PdfJsPage, opts: RenderOptions): Promise<Uint8Array> {
  const base = page.getViewport({ scale: 1 });
  let scale = opts.width !== undefined ? opts.width / base.width : DEFAULT_SCALE;
  scale = Math.min(
    scale,
    MAX_SIDE / base.width,
    MAX_SIDE / base.height,
    Math.sqrt(MAX_PIXELS / (base.width * base.height)),
  );
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(
    Math.max(1, Math.round(viewport.width)),
    Math.max(1, Math.round(viewport.height)),
  );
  await page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    viewport,
    background: 'rgb(255,255,255)',
    annotationMode: pdfjs.AnnotationMode.ENABLE,
  }).promise;
  // Drop the page's parsed resources (decoded images, fonts): pages are drawn one after the other.
  page.cleanup();
  const png = await canvas.encode('png');
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * Renders one page (1-based) to PNG, as displayed (CropBox, /Rotate), with annotation and form
 * field appearances, on a white background, in the calling thread (`renderPagePng` in index.ts
 * runs it in the document pool).
 */
export async function renderPageInProcess(
  pdf: Uint8Array,
  pageNumber: number,
  opts: RenderOptions = {},
): Promise<Uint8Array> {
  checkRenderArgs(pageNumber, opts);
  const doc = await openForRender(pdf);
  try {
    return await doc.render(pageNumber, opts);
  } finally {
    await doc.close();
  }
}

/** Number of pages of a stored (unencrypted) PDF. */
export async function getPageCount(pdf: Uint8Array): Promise<number> {
  try {
    const doc = await PDF.load(pdf);
    if (doc.isEncrypted && !doc.isAuthenticated)
      throw new DocumentInputError('pdf_encrypted', 'The PDF is password-protected');
    return doc.getPageCount();
  } catch (e) {
    if (e instanceof DocumentInputError) throw e;
    throw new DocumentInputError('invalid_document', 'The PDF is damaged and could not be read', {
      cause: e,
    });
  }
}
