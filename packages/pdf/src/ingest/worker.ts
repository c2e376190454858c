/**
 * Worker-thread entry of the document pool (see isolate.ts): ingest and page rendering. Loaded by
 * Node directly, so this module and everything it imports must be plain erasable TypeScript (no
 * parameter properties, enums or namespaces). The renderer (pdf.js, canvas) loads on first use.
 */
import { parentPort } from 'node:worker_threads';
import { DocumentInputError } from './errors.ts';
import { ingestInProcess } from './ingest-core.ts';
import type { WorkerReply, WorkerRequest } from './isolate-protocol.ts';

/** A buffer to transfer without copying when the view owns all of it, else a copy. */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

async function handle(msg: WorkerRequest, transfer: ArrayBuffer[]): Promise<WorkerReply> {
  if (msg.op === 'render') {
    const { renderPageInProcess } = await import('./render.ts');
    // The canvas's PNG lives in memory Node cannot transfer: send a copy (it is small).
    const png = (await renderPageInProcess(msg.bytes, msg.page, { width: msg.width })).slice();
    transfer.push(png.buffer as ArrayBuffer);
    return { id: msg.id, ok: true, op: 'render', png };
  }
  const result = await ingestInProcess({
    bytes: msg.bytes,
    password: msg.password,
    tagErrors: msg.tagErrors,
  });
  const unchanged = result.pdf === msg.bytes;
  let pdf: Uint8Array | null = null;
  if (!unchanged) {
    pdf = ownBuffer(result.pdf);
    transfer.push(pdf.buffer as ArrayBuffer);
  }
  return { id: msg.id, ok: true, op: 'ingest', result: { ...result, pdf }, unchanged };
}

const port = parentPort;
if (port) {
  port.on('message', async (msg: WorkerRequest) => {
    const transfer: ArrayBuffer[] = [];
    let reply: WorkerReply;
    try {
      reply = await handle(msg, transfer);
    } catch (e) {
      transfer.length = 0;
      reply =
        e instanceof DocumentInputError
          ? { id: msg.id, ok: false, code: e.code, message: e.message }
          : e instanceof RangeError
            ? { id: msg.id, ok: false, range: true, message: e.message }
            : { id: msg.id, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    try {
      port.postMessage(reply, transfer);
    } catch (e) {
      // A reply that cannot be sent must still settle the call, not kill the worker silently.
      port.postMessage({
        id: msg.id,
        ok: false,
        message: `the result could not be sent back (${String(e)})`,
      });
    }
  });
}
