/**
 * Worker-thread entry for isolated ingest (see isolate.ts). Loaded by Node directly, so this
 * module and everything it imports must be plain erasable TypeScript (no parameter properties,
 * enums or namespaces).
 */
import { parentPort } from 'node:worker_threads';
import { DocumentInputError } from './errors.ts';
import { ingestInProcess } from './ingest-core.ts';
import type { WorkerReply, WorkerRequest } from './isolate-protocol.ts';

const port = parentPort;
if (port) {
  port.on('message', async (msg: WorkerRequest) => {
    let reply: WorkerReply;
    const transfer: ArrayBuffer[] = [];
    try {
      const result = await ingestInProcess({
        bytes: msg.bytes,
        password: msg.password,
        tagErrors: msg.tagErrors,
      });
      const unchanged = result.pdf === msg.bytes;
      let pdf: Uint8Array | null = null;
      if (!unchanged) {
        // Transfer the output without copying when it owns its whole buffer.
        pdf =
          result.pdf.byteOffset === 0 && result.pdf.byteLength === result.pdf.buffer.byteLength
            ? result.pdf
            : result.pdf.slice();
        transfer.push(pdf.buffer as ArrayBuffer);
      }
      reply = { id: msg.id, ok: true, result: { ...result, pdf }, unchanged };
    } catch (e) {
      reply =
        e instanceof DocumentInputError
          ? { id: msg.id, ok: false, code: e.code, message: e.message }
          : { id: msg.id, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply, transfer);
  });
}
