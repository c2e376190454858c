/**
 * The document work callers run in the pool (isolate.ts, isolate-tasks.ts): ingest, page rendering, sealing,
 * checking signatures. This
 * module loads nothing heavy itself (no parser, renderer or font): a process that only hands
 * documents to the pool never loads pdf.js or @libpdf/core. When worker processes cannot
 * start at all, ingest and rendering fall back to the calling thread (loaded on first use).
 */
import type { AuditTrailInput } from '../seal/audit-trail.ts';
import type { LoadSigningIdentityOptions } from '../seal/identity.ts';
import { DocumentInputError } from './errors.ts';
import type { PoolFile } from './ipc-files.ts';
import { type IsolationLimits, IsolationUnavailableError, inflationLimits } from './isolate.ts';
import type { SealTaskInput, VerifyResult } from './isolate-protocol.ts';
import {
  auditTrailIsolated,
  combineIsolated,
  ingestIsolated,
  type PooledSealed,
  type PooledSigned,
  renderIsolated,
  renderPagesIsolated,
  type SealingOptions,
  sealIsolated,
  verifyIsolated,
} from './isolate-tasks.ts';
import { checkRenderArgs, type RenderOptions as InProcessRenderOptions } from './render-args.ts';
import { sniffFileType } from './sniff.ts';
import type { IngestedDocument, IngestInput } from './types.ts';

const inProcess = {
  ingest: async (input: IngestInput) =>
    (await import('./ingest-core.ts')).ingestInProcess({ ...input, inflation: inflationLimits(input) }),
  render: async () => await import('./render.ts'),
  verify: async (pdf: Uint8Array, identity: LoadSigningIdentityOptions): Promise<VerifyResult> => {
    const [{ verifyPdf }, { loadSigningIdentity }] = await Promise.all([
      import('../verify/index.ts'),
      import('../seal/identity.ts'),
    ]);
    const [found, service] = await Promise.all([verifyPdf(pdf), loadSigningIdentity(identity)]);
    return { ...found, serviceCertificateSha256: service.fingerprintSha256 };
  },
};

let isolationAvailable = true;

/**
 * Ingests one uploaded document. Rejects only with `DocumentInputError` for bad input. The
 * returned `pdf` is the input itself (no copy) when nothing had to change.
 */
export async function ingestDocument(input: IngestInput): Promise<IngestedDocument> {
  const { bytes } = input ?? {};
  if (!(bytes instanceof Uint8Array) || bytes.length === 0)
    throw new DocumentInputError('invalid_document', 'The document is empty');
  // Cheap rejections stay in this thread; everything that parses the file goes to the worker.
  if (sniffFileType(bytes).kind === 'unknown' || input.isolate === false || !isolationAvailable)
    return inProcess.ingest(input);
  try {
    return await ingestIsolated(input, input.limits);
  } catch (e) {
    if (!(e instanceof IsolationUnavailableError)) throw e;
    isolationAvailable = false;
    return inProcess.ingest(input);
  }
}

export interface RenderOptions extends InProcessRenderOptions {
  /** Whose document this is (an account id), for the pool's fair share; see `IngestInput.tenant`. */
  tenant?: string;
  /** Limits for the worker thread (default: the pool's). */
  limits?: IsolationLimits;
  /** Run in the document pool (default true); `false` renders in the calling thread. */
  isolate?: boolean;
}

/**
 * Renders one page (1-based) of a stored PDF to PNG, as displayed (CropBox, /Rotate), with
 * annotation and form field appearances, on a white background. It runs in the document pool,
 * with its time and memory limits, so a page that takes pdf.js seconds to draw never blocks the
 * caller's event loop. A page the document does not have, or a bad width, is a RangeError; an
 * unreadable PDF (or one over the limits) a `DocumentInputError`.
 */
export async function renderPagePng(
  pdf: Uint8Array,
  pageNumber: number,
  opts: RenderOptions = {},
): Promise<Uint8Array> {
  checkRenderArgs(pageNumber, opts);
  if (opts.isolate === false || !isolationAvailable)
    return (await inProcess.render()).renderPageInProcess(pdf, pageNumber, opts);
  try {
    return await renderIsolated(pdf, pageNumber, opts);
  } catch (e) {
    if (!(e instanceof IsolationUnavailableError)) throw e;
    isolationAvailable = false;
    return (await inProcess.render()).renderPageInProcess(pdf, pageNumber, opts);
  }
}

/**
 * Renders several pages (1-based, drawn in the order given) of a stored PDF from one parse of it,
 * in the document pool; `onPage` gets each PNG as soon as it is drawn, so the first pages are
 * ready while later ones are still drawing. Pages past the document's end are skipped. Resolves
 * with the document's page count. The time limit applies to each page.
 */
export async function renderPagesPng(
  pdf: Uint8Array,
  pages: number[],
  onPage: (page: number, png: Uint8Array) => void,
  opts: RenderOptions = {},
): Promise<number> {
  for (const page of pages) checkRenderArgs(page, opts);
  if (opts.isolate !== false && isolationAvailable) {
    try {
      return await renderPagesIsolated(pdf, pages, onPage, opts);
    } catch (e) {
      if (!(e instanceof IsolationUnavailableError)) throw e;
      isolationAvailable = false;
    }
  }
  const doc = await (await inProcess.render()).openForRender(pdf);
  try {
    for (const page of pages) if (page <= doc.numPages) onPage(page, await doc.render(page, opts));
    return doc.numPages;
  } finally {
    await doc.close();
  }
}

/**
 * Seals one document (see `sealDocument`) in the document pool, with its time and memory limits:
 * its bytes, or a file handed over to the pool (`PoolFile`, at `poolInputPath()`; removed once read);
 * the worker loads the signing identity from `seal.identity` (once per worker). With
 * `opts.trust`, the seal gets a TSA's timestamps and the long-term validation data (PAdES B-LTA):
 * the worker builds its TSA client from `trust.tsa`, and every TSA / OCSP / CRL exchange is made
 * here by `trust.fetch` (isolate.ts, `answerFetch`). Resolves with the sealed PDF, the SHA-256s of
 * it, of the PDF given and of the certificate it was signed with (hashed in the worker), and the
 * time the TSA certified last (null without one).
 */
export function sealInPool(
  pdf: Uint8Array | PoolFile,
  seal: SealTaskInput,
  opts: SealingOptions = {},
): Promise<PooledSealed> {
  return sealIsolated(pdf, seal, opts);
}

/** Combines sealed documents into one signed PDF (see `combineDocuments`) in the document pool. */
export function combineInPool(
  pdfs: Uint8Array[],
  identity: LoadSigningIdentityOptions,
  name: string,
  opts: SealingOptions = {},
): Promise<PooledSigned> {
  return combineIsolated(pdfs, identity, name, opts);
}

/** Builds the signed audit trail (see `buildAuditTrail`) in the document pool. */
export function auditTrailInPool(
  trail: AuditTrailInput,
  identity: LoadSigningIdentityOptions,
  opts: SealingOptions = {},
): Promise<PooledSigned> {
  return auditTrailIsolated(trail, identity, opts);
}

/**
 * Checks every signature of an uploaded PDF (see `inspectSignatures`) and hashes the file, in the
 * document pool as `tenant`'s work: a hostile file that makes the parser loop or allocate costs a
 * worker (`DocumentInputError` invalid_document), never the caller's event loop or memory. The
 * worker loads the service's sealing identity from `identity` (once per worker) for its fingerprint.
 */
export async function verifyInPool(
  pdf: Uint8Array,
  identity: LoadSigningIdentityOptions,
  opts: { tenant?: string; limits?: IsolationLimits; isolate?: boolean } = {},
): Promise<VerifyResult> {
  if (opts.isolate === false || !isolationAvailable) return inProcess.verify(pdf, identity);
  try {
    return await verifyIsolated(pdf, identity, opts);
  } catch (e) {
    if (!(e instanceof IsolationUnavailableError)) throw e;
    isolationAvailable = false;
    return inProcess.verify(pdf, identity);
  }
}
