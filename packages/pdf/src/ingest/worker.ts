/**
 * Entry of a document pool worker, a child process (see isolate.ts and child-worker.ts). It ingests uploads, renders pages, seals and combines
 * documents, builds audit trails and checks the signatures of uploaded PDFs. Loaded by Node directly, so this module and everything it imports must be TypeScript
 * Node can run itself. Each kind of work loads its libraries on first use (the pool gives a worker one kind).
 */
import type { LoadSigningIdentityOptions, SigningIdentity } from '../seal/identity.ts';
import type { SealTrust } from '../seal/sign.ts';
import type { TrustFetch } from '../seal/trust.ts';
import { TrustServiceError } from '../seal/trust-error.ts';
import { DocumentInputError, SealInputMismatchError } from './errors.ts';
import { sha256Hex } from './hash.ts';
import { inOrder, unspill } from './ipc-files.ts';
import type {
  FetchAnswer,
  TimestampAuthorityConfig,
  WorkerFetch,
  WorkerProgress,
  WorkerReply,
  WorkerRequest,
} from './isolate-protocol.ts';

type Send = (message: WorkerReply | WorkerProgress | WorkerFetch) => void;

const identities = new Map<string, Promise<SigningIdentity>>();

/** The sealing identity, loaded once per worker (and per configuration). */
async function identityFor(opts: LoadSigningIdentityOptions): Promise<SigningIdentity> {
  const key = JSON.stringify([
    opts.dataDir,
    opts.password ?? null,
    opts.p12 ? Buffer.from(opts.p12).toString('base64') : null,
  ]);
  let identity = identities.get(key);
  if (!identity) {
    const { loadSigningIdentity } = await import('../seal/identity.ts');
    identity = loadSigningIdentity(opts);
    identities.set(key, identity);
    identity.catch(() => identities.delete(key));
  }
  return identity;
}

/** Exchanges this worker asked the pool's process for, by number, until answered. */
const fetches = new Map<
  number,
  { resolve: (r: Awaited<ReturnType<TrustFetch>>) => void; reject: (e: Error) => void }
>();
let nextFetch = 1;

/**
 * The TrustFetch of one task: every TSA / OCSP / CRL exchange is made by the pool's process
 * (through its outbound guard and limits), never from here; this worker opens no connection.
 */
function proxyFetch(taskId: number, send: Send): TrustFetch {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const n = nextFetch++;
      fetches.set(n, { resolve, reject });
      send({ id: taskId, fetch: n, url, method: init.method, headers: init.headers, body: init.body });
    });
}

function onFetchAnswer(answer: FetchAnswer): void {
  const waiting = fetches.get(answer.fetched);
  if (!waiting) return;
  fetches.delete(answer.fetched);
  if ('error' in answer) waiting.reject(new Error(answer.error));
  else waiting.resolve({ status: answer.status, body: ownBuffer(answer.body) });
}

/** A task's trust services (a fresh TSA client, so its `lastTime` is this task's), or none: B-B. */
async function trustFor(tsa: TimestampAuthorityConfig | undefined, fetch: TrustFetch): Promise<SealTrust> {
  if (!tsa) return {};
  const { createRevocationProvider, createTimestampAuthority } = await import('../seal/trust.ts');
  return {
    timestampAuthority: createTimestampAuthority({ ...tsa, fetch }),
    revocationProvider: createRevocationProvider(fetch),
  };
}

const timeOf = (trust: SealTrust) => trust.timestampAuthority?.lastTime ?? null;

/** Seals a document, combines sealed ones or builds the audit trail, with the task's trust services. */
async function sealingTask(
  msg: Extract<WorkerRequest, { op: 'seal' | 'combine' | 'audit-trail' }>,
  send: Send,
): Promise<WorkerReply> {
  const trust = await trustFor(msg.tsa, proxyFetch(msg.id, send));
  if (msg.op === 'seal') {
    const { sealDocument } = await import('../seal/seal-document.ts');
    const identity = await identityFor(msg.seal.identity);
    const inputSha256 = sha256Hex(msg.bytes);
    const { expectedSha256, ...seal } = msg.seal;
    if (expectedSha256 && inputSha256 !== expectedSha256) throw new SealInputMismatchError(inputSha256);
    const pdf = await sealDocument({ ...seal, pdf: msg.bytes, identity, trust });
    const certificateSha256 = identity.fingerprintSha256;
    const sha256 = sha256Hex(pdf);
    return {
      id: msg.id,
      ok: true,
      op: 'seal',
      pdf,
      sha256,
      inputSha256,
      certificateSha256,
      timestampTime: timeOf(trust),
    };
  }
  if (msg.op === 'combine') {
    const { combineDocuments } = await import('../seal/combine.ts');
    const identity = await identityFor(msg.identity);
    const pdf = await combineDocuments([msg.bytes, ...msg.more], identity, msg.name, trust);
    return { id: msg.id, ok: true, op: 'combine', pdf, sha256: sha256Hex(pdf), timestampTime: timeOf(trust) };
  }
  const { buildAuditTrail } = await import('../seal/audit-trail.ts');
  const pdf = await buildAuditTrail(msg.trail, await identityFor(msg.identity), trust);
  return {
    id: msg.id,
    ok: true,
    op: 'audit-trail',
    pdf,
    sha256: sha256Hex(pdf),
    timestampTime: timeOf(trust),
  };
}

/** Draws `pages` in order from one parse of the document, sending each PNG as soon as it is drawn. */
async function renderPages(msg: Extract<WorkerRequest, { op: 'render-pages' }>, send: Send) {
  const { openForRender } = await import('./render.ts');
  const doc = await openForRender(msg.bytes, true);
  try {
    for (const page of msg.pages) {
      if (page > doc.numPages) break;
      send({ id: msg.id, progress: true, page, png: await doc.render(page, { width: msg.width }) });
    }
    return doc.numPages;
  } finally {
    await doc.close();
  }
}

async function handle(msg: WorkerRequest, send: Send): Promise<WorkerReply> {
  if (msg.op === 'render') {
    const { renderPageInProcess } = await import('./render.ts');
    return {
      id: msg.id,
      ok: true,
      op: 'render',
      png: await renderPageInProcess(msg.bytes, msg.page, { width: msg.width }),
    };
  }
  if (msg.op === 'render-pages')
    return { id: msg.id, ok: true, op: 'render-pages', pageCount: await renderPages(msg, send) };
  if (msg.op === 'seal' || msg.op === 'combine' || msg.op === 'audit-trail') return sealingTask(msg, send);
  if (msg.op === 'verify') {
    const { verifyPdf } = await import('../verify/index.ts');
    const identity = await identityFor(msg.identity);
    const found = await verifyPdf(msg.bytes);
    const result = { ...found, serviceCertificateSha256: identity.fingerprintSha256 };
    return { id: msg.id, ok: true, op: 'verify', result };
  }
  const { ingestInProcess } = await import('./ingest-core.ts');
  const result = await ingestInProcess({
    bytes: msg.bytes,
    password: msg.password,
    tagErrors: msg.tagErrors,
    inflation: msg.inflation,
  });
  // Unchanged: the caller keeps its own copy, so the bytes are not sent back.
  const unchanged = result.pdf === msg.bytes;
  return {
    id: msg.id,
    ok: true,
    op: 'ingest',
    result: { ...result, pdf: unchanged ? null : result.pdf },
    unchanged,
  };
}

function errorReply(id: number, e: unknown): WorkerReply {
  return e instanceof DocumentInputError
    ? { id, ok: false, code: e.code, message: e.message }
    : e instanceof RangeError
      ? { id, ok: false, range: true, message: e.message }
      : e instanceof TrustServiceError
        ? { id, ok: false, trust: true, message: e.message }
        : e instanceof SealInputMismatchError
          ? { id, ok: false, mismatchSha256: e.actualSha256, message: e.message }
          : { id, ok: false, message: e instanceof Error ? e.message : String(e) };
}

async function onRequest(msg: WorkerRequest, send: Send) {
  let reply: WorkerReply;
  try {
    reply = await handle(msg, send);
  } catch (e) {
    reply = errorReply(msg.id, e);
  }
  try {
    send(reply);
  } catch (e) {
    // A reply that cannot be sent must still settle the call, not kill the worker silently.
    send({ id: msg.id, ok: false, message: `the result could not be sent back (${String(e)})` });
  }
}

/**
 * A view that owns its whole buffer. IPC delivers byte arrays as views into the message's buffer,
 * and a parser that reads `bytes.buffer` from offset 0 would see the whole message (pdf-lib's
 * JPEG embedder, used here before, did).
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

if (process.send) {
  // Messages come over the IPC channel (structured clone: buffers are copied, not transferred):
  // a task, or the answer to an exchange a sealing task asked for. A large byte array of a task
  // comes as a file (ipc-files.ts), read back in arrival order. Replies go back over the channel:
  // receiving costs the pool's process one copy either way.
  const send: Send = (m) => process.send?.(m);
  const receive = inOrder(async (raw: unknown) => {
    let msg: WorkerRequest;
    try {
      msg = (await unspill(raw)) as WorkerRequest;
    } catch (e) {
      // The task's file could not be read: the call fails instead of waiting for its time limit.
      return send(errorReply((raw as { id: number }).id, e));
    }
    // A reply that cannot be sent at all (the channel is gone): the worker ends, and the pool
    // fails the call as it does for any worker that exits.
    onRequest({ ...msg, bytes: ownBuffer(msg.bytes) }, send).catch(() => process.exit(1));
  });
  process.on('message', (msg: WorkerRequest | FetchAnswer) =>
    'fetched' in msg ? onFetchAnswer(msg) : receive(msg),
  );
  // The pool's process is gone: nothing can use this worker any more.
  process.on('disconnect', () => process.exit(0));
  // The libraries of this worker's kind of work load before it reports ready (time limits start then).
  const preload: Record<string, () => Promise<unknown>> = {
    ingest: () => import('./ingest-core.ts'),
    render: async () => (await import('./render.ts')).loadPdfJs(),
    seal: () => Promise.all([import('../seal/seal-document.ts'), import('../seal/identity.ts')]),
  };
  // A library that fails to load here fails the tasks that need it, with its own error.
  (preload[process.argv[2] ?? '']?.() ?? Promise.resolve())
    .catch(() => {})
    .finally(() => process.send?.({ ready: true }));
}
