import type { Executor } from '@esign/db';
import { findPageRenderFailure, insertPageRenderFailure } from '@esign/db/queries/page-images';
import { type Locale, t } from '@esign/i18n';
import type { Config } from '../config.ts';
import { CoreError, isStorageFull, storageFull } from '../errors.ts';
import { poolBusy } from './documents-input.ts';
import type { PageRun } from './request-model.ts';
import { hmac, safeEqual } from './secret.ts';
import type { FileStore } from './storage.ts';

/** What a signed link grants: one stored file (or one rendered page of it), until it expires. */
export interface FileLink {
  /** storage key */
  k: string;
  /** content type */
  t: string;
  /** download file name */
  n: string;
  /** 1-based page to render as PNG, for page images */
  p?: number;
  /**
   * Page count, for a link to every page image of a document (`pageImageLinks`): the page is the
   * number in the link's file name (`…-page-<n>.png`), and `n` is the document's name.
   */
  pp?: number;
  /** expiry, unix seconds */
  e: number;
}

export const FILE_LINK_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Document and image URLs returned by the API: signed, expiring links served by the service, so
 * they work without an API key and cannot be guessed or altered.
 */
export function signFileLink(
  config: Config,
  link: Omit<FileLink, 'e'>,
  { now, ttlSeconds = FILE_LINK_TTL_SECONDS }: { now: Date; ttlSeconds?: number },
): string {
  const payload = Buffer.from(
    JSON.stringify({ ...link, e: Math.floor(now.getTime() / 1000) + ttlSeconds }),
  ).toString('base64url');
  const sig = hmac(config, 'file-link', payload).subarray(0, 24).toString('base64url');
  const ext = link.p || link.pp ? 'png' : (link.n.split('.').pop() ?? 'bin');
  return `${config.PUBLIC_URL}/files/${payload}.${sig}/${encodeURIComponent(link.n.replace(/\.[^.]+$/, ''))}.${ext}`;
}

/**
 * The link to every page image of a stored document, with `{page}` where the 1-based page number
 * goes (`…/<name>-page-{page}.png`). One signed token covers every page; the page is named by the
 * link's file name. Signing one token per page cost a 5,000-page document 5,000 HMACs on the event
 * loop each time a signer opened it (issue 18); a signer who may see one page may see them all.
 * The name is percent-encoded, so `{page}` occurs once, at the end.
 */
function pageImageUrlTemplate(
  config: Config,
  doc: { storage_key: string; name: string },
  { pageCount, now, ttlSeconds }: { pageCount: number; now: Date; ttlSeconds: number },
): string {
  const link = signFileLink(
    config,
    { k: doc.storage_key, t: 'image/png', n: doc.name, pp: pageCount },
    { now, ttlSeconds },
  );
  // signFileLink's URL ends in `/<name>.png`: each page's file name replaces that last segment.
  return `${link.slice(0, link.lastIndexOf('/') + 1)}${encodeURIComponent(doc.name)}-page-{page}.png`;
}

/** One page's image link from pageImageUrlTemplate's template. */
export const pageImageUrl = (template: string, page: number): string =>
  template.replace('{page}', String(page));

/**
 * Every page of a stored document as `{number, width, height, image_url}` (sizes in points): what
 * the template editor draws fields over (the signing page gets the template and the sizes).
 */
export function pageImageLinks(
  config: Config,
  doc: { storage_key: string; name: string; pages: readonly { width: number; height: number }[] },
  { now, ttlSeconds }: { now: Date; ttlSeconds: number },
): { number: number; width: number; height: number; image_url: string }[] {
  const template = pageImageUrlTemplate(config, doc, { pageCount: doc.pages.length, now, ttlSeconds });
  return doc.pages.map((p, i) => ({
    number: i + 1,
    width: p.width,
    height: p.height,
    image_url: pageImageUrl(template, i + 1),
  }));
}

/**
 * A document's pages as the signing page gets them: the image link template, the page count and
 * the pages' sizes in points as runs of equal pages (`[count, width, height]`). A 5,000-page
 * contract of one paper size is one run: with a link per page its answer was 1.2 MB, with a size
 * per page 0.2 MB, which every open validated and serialised on the event loop and every signer's
 * browser parsed (issue 18).
 */
export function signingPages(
  config: Config,
  doc: { storage_key: string; name: string; page_sizes: readonly PageRun[] },
  { now, ttlSeconds }: { now: Date; ttlSeconds: number },
): { page_image_url: string; page_count: number; page_sizes: PageRun[] } {
  const pageCount = doc.page_sizes.reduce((n, [count]) => n + count, 0);
  return {
    page_image_url: pageImageUrlTemplate(config, doc, { pageCount, now, ttlSeconds }),
    page_count: pageCount,
    page_sizes: doc.page_sizes.map(([count, width, height]) => [count, width, height]),
  };
}

/** The page a document-wide page link's file name names (`…-page-<n>.png`), within its page count. */
function linkedPage(link: FileLink, fileName: string | undefined): number {
  const page = Number(/-page-(\d{1,6})\.png$/.exec(fileName ?? '')?.[1] ?? Number.NaN);
  if (!Number.isInteger(page) || page < 1 || page > link.pp!)
    throw new CoreError('not_found', 'Unknown or malformed file link');
  return page;
}

export function verifyFileLink(config: Config, token: string, now: Date): FileLink {
  const [payload, sig] = token.split('.');
  if (!payload || !sig) throw new CoreError('not_found', 'Unknown or malformed file link');
  const expected = hmac(config, 'file-link', payload).subarray(0, 24);
  if (!safeEqual(Buffer.from(sig, 'base64url'), expected))
    throw new CoreError('not_found', 'Unknown or malformed file link');
  const link = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as FileLink;
  if (link.e * 1000 < now.getTime())
    throw new CoreError('not_found', 'This file link has expired; fetch the resource again for a fresh link');
  return link;
}

/** A file a signed link serves: a page image's bytes, or a stored file as a stream. */
export type LinkedFile = { contentType: string; fileName: string } & (
  | { bytes: Uint8Array }
  | { stream: import('./storage.ts').StoredFileStream }
);

/** What serving and drawing page images needs: the database (failures remembered), storage, config. */
export interface PageImageContext {
  db: Executor;
  deps: { storage: FileStore };
  config: Config;
  now: () => Date;
}

/**
 * Serves a signed link: a page image (rendered on first request and cached), or the stored file
 * opened as a stream, so a 25 MB document goes to the client without being held in memory. A page
 * that could not be rendered is `422 invalid_document` at once (see `pageImage`).
 */
export async function readLinkedFile(
  ctx: PageImageContext,
  request: { token: string; fileName?: string },
): Promise<LinkedFile> {
  const link = verifyFileLink(ctx.config, request.token, ctx.now());
  if (link.pp) {
    const page = linkedPage(link, request.fileName);
    const png = await pageImage(ctx, link.k, page);
    return { bytes: png, contentType: 'image/png', fileName: `${link.n}-page-${page}.png` };
  }
  if (link.p) {
    const png = await pageImage(ctx, link.k, link.p);
    return { bytes: png, contentType: 'image/png', fileName: link.n };
  }
  return { stream: await ctx.deps.storage.open(link.k), contentType: link.t, fileName: link.n };
}

/** Pages drawn after a requested one that is not cached yet, from the same parse (a signer scrolls on). */
const PAGE_PREFETCH = 10;

/** Page images being drawn in this process, by `${pdfKey}#${page}`: a second request waits for the first. */
const drawing = new Map<string, Promise<Uint8Array>>();

/**
 * A page that a failed drawing did not reach (a later page of the same parse): not known to be
 * unrenderable, so whoever waits for it asks again, for that page alone.
 */
class NotDrawn extends Error {
  override readonly name = 'NotDrawn';
}

/** The answer for a page that cannot be rendered: a refusal the viewer shows, never a 5xx. */
const unrenderable = (page: number, reason: string) =>
  new CoreError('invalid_document', `Page ${page} of this document cannot be displayed: ${reason}`);

/**
 * Page image of a stored PDF: rendered once (by the worker after upload, or on first request) and
 * cached. An uncached page is drawn with the next `PAGE_PREFETCH` pages from one parse, in page
 * order, and is returned as soon as it is drawn (the following pages keep drawing and are cached).
 *
 * A page whose drawing failed in the document pool (over its memory or time limit, or unreadable)
 * is remembered in the database (issue 29.4): every process then answers it at once with `422
 * invalid_document`, instead of drawing it again for seconds on each request and answering 500.
 */
/**
 * How long a page that failed to render is answered at once before it is tried again: long enough
 * that hammering its link costs one render an hour, short enough that a page that only failed on a
 * busy machine's time limit comes back by itself.
 */
const PAGE_RENDER_RETRY_MS = 60 * 60 * 1000;

/** Failures at this time or later still count (PAGE_RENDER_RETRY_MS). */
export const renderRetryCutoff = (now: Date) => new Date(now.getTime() - PAGE_RENDER_RETRY_MS);

async function pageImage(ctx: PageImageContext, pdfKey: string, page: number): Promise<Uint8Array> {
  const pending = drawing.get(`${pdfKey}#${page}`);
  if (pending) return retryNotDrawn(pending, () => pageImage(ctx, pdfKey, page));
  const key = `${pdfKey}.page-${page}.png`;
  if (await ctx.deps.storage.exists(key)) return ctx.deps.storage.get(key);
  const failed = await findPageRenderFailure(ctx.db, {
    storageKey: pdfKey,
    page,
    since: renderRetryCutoff(ctx.now()),
  });
  if (failed) throw unrenderable(page, failed.reason);
  const pages = Array.from({ length: PAGE_PREFETCH + 1 }, (_, i) => page + i);
  const { drawn } = renderPageImages(ctx, pdfKey, pages);
  return retryNotDrawn(drawn.get(page)!, () => pageImage(ctx, pdfKey, page));
}

async function retryNotDrawn(
  drawn: Promise<Uint8Array>,
  again: () => Promise<Uint8Array>,
): Promise<Uint8Array> {
  try {
    return await drawn;
  } catch (err) {
    if (err instanceof NotDrawn) return again();
    throw err;
  }
}

/**
 * Draws `pages` of a stored PDF (those not being drawn already) in the document pool from one
 * parse, in the order given, and caches each image as soon as it is drawn. `drawn` has a promise
 * per page; `done` settles when every image is stored (or the drawing failed: the page it failed
 * on is then remembered as unrenderable, and `done` rejects with its `invalid_document`).
 */
export function renderPageImages(
  ctx: PageImageContext,
  pdfKey: string,
  pages: number[],
): { drawn: Map<number, Promise<Uint8Array>>; done: Promise<void> } {
  const drawn = new Map<number, Promise<Uint8Array>>();
  const settle = new Map<number, Settle>();
  for (const page of pages) {
    const id = `${pdfKey}#${page}`;
    const pending = drawing.get(id);
    if (pending) {
      drawn.set(page, pending);
      continue;
    }
    const promise = new Promise<Uint8Array>((resolve, reject) => settle.set(page, { resolve, reject }));
    promise.catch(() => {}); // a page nobody asked for may fail unobserved
    drawing.set(id, promise);
    drawn.set(page, promise);
  }
  const ours = (page: number) => drawn.get(page)!;
  const done = drawPages(ctx, pdfKey, [...settle.keys()], settle, ours).finally(() => {
    for (const page of settle.keys()) forget(pdfKey, page, ours(page));
  });
  done.catch(() => {});
  return { drawn, done };
}

interface Settle {
  resolve(png: Uint8Array): void;
  reject(err: unknown): void;
}

/** Stops answering `page` from memory (once it is stored), unless a newer drawing took its place. */
function forget(pdfKey: string, page: number, promise: Promise<Uint8Array>): void {
  const id = `${pdfKey}#${page}`;
  if (drawing.get(id) === promise) drawing.delete(id);
}

async function drawPages(
  ctx: PageImageContext,
  pdfKey: string,
  pages: number[],
  settle: Map<number, Settle>,
  ours: (page: number) => Promise<Uint8Array>,
): Promise<void> {
  if (pages.length === 0) return;
  const { storage } = ctx.deps;
  const { renderPagesPng, DocumentInputError, DocumentPoolBusyError } = await import('@esign/pdf/pool');
  let writes = Promise.resolve();
  const undrawn = new Set(pages);
  try {
    const count = await renderPagesPng(
      await storage.get(pdfKey),
      pages,
      (page, png) => {
        undrawn.delete(page);
        settle.get(page)?.resolve(png);
        // Once stored, the image is read from storage: holding every drawn page until the last
        // one is (200 pages of 1240 px images) would keep hundreds of MB in this process.
        writes = writes
          .then(() => storage.put(`${pdfKey}.page-${page}.png`, png, 'image/png'))
          .then(() => forget(pdfKey, page, ours(page)));
        // Observed at once: a write refused while pages are still drawing (a full disk) must not
        // be an unhandled rejection, which ended the process (issue 41); `await writes` below
        // still sees it.
        writes.catch(() => {});
      },
      { width: 1240, tenant: accountOfKey(pdfKey) },
    );
    const missing = new RangeError(`The document has ${count} page(s)`);
    for (const page of pages) if (page > count) settle.get(page)?.reject(missing);
    await writes;
  } catch (err) {
    if (err instanceof DocumentInputError) {
      // Pages are drawn in the order given: the failure is the first page not drawn. The pages
      // after it are not known to fail; whoever waits for one asks for it again, alone.
      const failedPage = pages.find((p) => undrawn.has(p))!;
      const failure = unrenderable(failedPage, err.message);
      try {
        await insertPageRenderFailure(ctx.db, {
          storageKey: pdfKey,
          page: failedPage,
          reason: err.message,
          now: ctx.now(),
        });
      } finally {
        // Answered even when it could not be remembered (the database away): never left waiting.
        for (const [page, s] of settle) s.reject(page === failedPage ? failure : new NotDrawn());
      }
      throw failure;
    }
    // Every worker busy and the waiting line full: the viewer asks again later (429, Retry-After).
    // A full disk: the pages not served yet answer 507 storage_full (those drawn were served from
    // memory; they are drawn again once there is space).
    const failure =
      err instanceof DocumentPoolBusyError
        ? poolBusy(err, `Page ${pages[0]}`)
        : isStorageFull(err)
          ? storageFull()
          : err;
    for (const s of settle.values()) s.reject(failure);
    throw failure;
  }
}

/**
 * The account a stored file belongs to, from its key (`templates/<account>/…`, `requests/<account>/…`):
 * rendering runs in the shared document pool as that account's work, so one account's slow pages
 * never hold every worker.
 */
function accountOfKey(key: string): string | undefined {
  return /^(?:templates|requests)\/(\d+)\//.exec(key)?.[1];
}

/** Text fit for a file name: no control characters, no characters file systems refuse, 60 at most. */
function fileNamePart(text: string): string {
  const kept = [...text].map((c) =>
    c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 || '\\/:*?"<>|'.includes(c) ? ' ' : c,
  );
  return kept.join('').replace(/\s+/g, ' ').trim().slice(0, 60);
}

/**
 * A produced file's download name (without `.pdf`) in its reader's language (issue 42.6): a
 * document keeps its own name; the audit trail and the combined file are named in `locale`. Under
 * a brand (issue 44), the brand's name comes first ("Acme Law - Lease - signed"), with the
 * characters file systems refuse taken out.
 */
export function downloadName(
  locale: Locale,
  file: { kind: string; name: string },
  request: { title: string; brand?: string | null },
): string {
  const { title, brand } = request;
  const name =
    file.kind === 'audit_trail'
      ? t(locale, 'file.audit_trail', { title })
      : file.kind === 'combined'
        ? t(locale, 'file.combined', { title })
        : file.name;
  const prefix = brand ? fileNamePart(brand) : '';
  return prefix ? `${prefix} - ${name}` : name;
}
