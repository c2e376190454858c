/**
 * The document work run in the pool of isolate.ts, one function per task: ingest, page rendering,
 * sealing (with the trust services' exchanges made by this process, `SealingOptions.trust`) and
 * checking signatures. Each sends its task with `runInPool` and checks the reply is its own.
 */
import type { AuditTrailInput } from '../seal/audit-trail.ts';
import type { LoadSigningIdentityOptions } from '../seal/identity.ts';
import { asTaskBytes, type PoolFile } from './ipc-files.ts';
import { failure, type IsolationLimits, inflationLimits, runInPool } from './isolate.ts';
import type { PoolTrust, SealTaskInput, VerifyResult, WorkerReply, WorkerTask } from './isolate-protocol.ts';
import type { IngestedDocument, IngestInput } from './types.ts';

/** Ingests in a worker of the pool; see the module comment. */
export async function ingestIsolated(
  input: IngestInput,
  limits: IsolationLimits = {},
): Promise<IngestedDocument> {
  const reply = await runInPool(
    {
      op: 'ingest',
      bytes: input.bytes,
      password: input.password,
      tagErrors: input.tagErrors,
      inflation: inflationLimits(input),
    },
    input.tenant,
    limits,
  );
  if (reply.op !== 'ingest') throw failure('crash', 'unexpected reply');
  return { ...reply.result, pdf: reply.unchanged || !reply.result.pdf ? input.bytes : reply.result.pdf };
}

/** Renders one page to PNG in a worker of the pool (render.ts does the work). */
export async function renderIsolated(
  pdf: Uint8Array,
  page: number,
  opts: { width?: number; tenant?: string; limits?: IsolationLimits },
): Promise<Uint8Array> {
  const reply = await runInPool(
    { op: 'render', bytes: pdf, page, width: opts.width },
    opts.tenant,
    opts.limits ?? {},
  );
  if (reply.op !== 'render') throw failure('crash', 'unexpected reply');
  return reply.png;
}

/**
 * Renders `pages` (1-based, drawn in the order given) from one parse of the document, in a worker
 * of the pool; `onPage` gets each PNG as soon as it is drawn. Pages past the document's end are
 * skipped. Resolves with the document's page count.
 */
export async function renderPagesIsolated(
  pdf: Uint8Array,
  pages: number[],
  onPage: (page: number, png: Uint8Array) => void,
  opts: { width?: number; tenant?: string; limits?: IsolationLimits },
): Promise<number> {
  const reply = await runInPool(
    { op: 'render-pages', bytes: pdf, pages, width: opts.width },
    opts.tenant,
    opts.limits ?? {},
    { onProgress: (p) => onPage(p.page, p.png) },
  );
  if (reply.op !== 'render-pages') throw failure('crash', 'unexpected reply');
  return reply.pageCount;
}

/** Options of a sealing call: the account, the limits, the trust services (none: PAdES B-B). */
export interface SealingOptions {
  tenant?: string;
  limits?: IsolationLimits;
  trust?: PoolTrust;
}

/** A signed file from the pool, its SHA-256 (hex), the time its TSA last certified (null without a TSA). */
export interface PooledSigned {
  pdf: Uint8Array;
  sha256: string;
  timestampTime: Date | null;
}

/** A sealed document: also the SHA-256 of the bytes sealed and of the certificate that signed it. */
export interface PooledSealed extends PooledSigned {
  inputSha256: string;
  certificateSha256: string;
}

type SealingTask = Extract<WorkerTask, { op: 'seal' | 'combine' | 'audit-trail' }>;
type SealingReply = Extract<WorkerReply, { op: 'seal' | 'combine' | 'audit-trail' }>;

/** Runs one sealing task, its trust services' exchanges made through `opts.trust.fetch`. */
async function runSealing(task: SealingTask, opts: SealingOptions): Promise<SealingReply> {
  const reply = await runInPool({ ...task, tsa: opts.trust?.tsa }, opts.tenant, opts.limits ?? {}, {
    fetch: opts.trust?.fetch,
  });
  if (reply.op !== task.op) throw failure('crash', 'unexpected reply');
  return reply as SealingReply;
}

/** Seals one document in a worker of the pool (seal-document.ts does the work). */
export async function sealIsolated(
  pdf: Uint8Array | PoolFile,
  seal: SealTaskInput,
  opts: SealingOptions = {},
): Promise<PooledSealed> {
  const reply = await runSealing({ op: 'seal', bytes: asTaskBytes(pdf), seal }, opts);
  if (reply.op !== 'seal') throw failure('crash', 'unexpected reply');
  const { sha256, inputSha256, certificateSha256, timestampTime } = reply;
  return { pdf: reply.pdf, sha256, inputSha256, certificateSha256, timestampTime };
}

/** Combines sealed documents into one signed PDF in a worker of the pool (combine.ts). */
export async function combineIsolated(
  pdfs: Uint8Array[],
  identity: LoadSigningIdentityOptions,
  name: string,
  opts: SealingOptions = {},
): Promise<PooledSigned> {
  const [first, ...more] = pdfs;
  if (!first) throw new RangeError('combineDocuments needs at least one PDF');
  const reply = await runSealing({ op: 'combine', bytes: first, more, identity, name }, opts);
  return { pdf: reply.pdf, sha256: reply.sha256, timestampTime: reply.timestampTime };
}

/** Builds the signed audit trail in a worker of the pool (audit-trail.ts). */
export async function auditTrailIsolated(
  trail: AuditTrailInput,
  identity: LoadSigningIdentityOptions,
  opts: SealingOptions = {},
): Promise<PooledSigned> {
  const reply = await runSealing({ op: 'audit-trail', bytes: new Uint8Array(0), trail, identity }, opts);
  return { pdf: reply.pdf, sha256: reply.sha256, timestampTime: reply.timestampTime };
}

/** Checks the signatures of an uploaded PDF and hashes it, in a worker of the pool (verify/index.ts). */
export async function verifyIsolated(
  pdf: Uint8Array,
  identity: LoadSigningIdentityOptions,
  opts: { tenant?: string; limits?: IsolationLimits } = {},
): Promise<VerifyResult> {
  const reply = await runInPool({ op: 'verify', bytes: pdf, identity }, opts.tenant, opts.limits ?? {});
  if (reply.op !== 'verify') throw failure('crash', 'unexpected reply');
  return reply.result;
}
