import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { CoreError, MAX_DOCUMENT_BYTES } from '@esign/core';
import type { UploadedFiles } from '@esign/core/uploads';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonBody, MAX_JSON_DEPTH } from './json-body.ts';
import type { ParseThreadData, ParseThreadMessage } from './json-parse-thread.ts';
import { type BodyLimit, bodyLimitOf, tooLarge } from './limits.ts';

interface StreamingJsonOptions {
  limit: BodyLimit;
  contentLength: string | undefined;
  /** The request's files: each long string taken becomes one, named by its reference. */
  uploads: UploadedFiles;
  /**
   * Which strings become files: those at one of `paths` (object keys from the root, `*` for an
   * array's element) that reach `from` characters and whose head does not match `keep`, decoded
   * from base64 (at most `maxBytes`).
   */
  divert: { paths: string[][]; from: number; keep: RegExp; maxBytes: number };
}

/**
 * Parser threads at once in one process. Each holds a V8 heap of its own (30 to 60 MB while it
 * parses); the bodies of later uploads wait unread (TCP holds their clients back) for a thread.
 */
export const MAX_PARSE_THREADS = 2;

/** Bytes sent to the parser thread and not yet taken, before the body is read further. */
const IN_FLIGHT_BYTES = 1024 * 1024;
/** The parser thread's young generation (its short-lived garbage), MB. */
const YOUNG_GENERATION_MB = 8;

const unreadable = () => new CoreError('invalid_request', 'The request body could not be read');
/** The parser thread failed (not the body): answered as a server error. */
const THREAD_FAILED = 'ERR_JSON_PARSE_THREAD';
const threadFailed = (cause?: unknown) =>
  Object.assign(new Error('the JSON parser thread failed', { cause }), { code: THREAD_FAILED });

/** Places for parser threads, given in the order they were asked for. */
class ThreadSlots {
  private free = MAX_PARSE_THREADS;
  private readonly queue: (() => void)[] = [];

  /** Waits for a place (or for `signal`: the request was abandoned); resolves to its release. */
  async take(signal: AbortSignal): Promise<() => void> {
    if (this.free > 0) this.free--;
    else
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          const at = this.queue.indexOf(wake);
          if (at !== -1) this.queue.splice(at, 1);
          reject(unreadable());
        };
        if (signal.aborted) return leave();
        this.queue.push(wake);
        signal.addEventListener('abort', leave, { once: true });
      });
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      // Handed straight to the next in line, so a newcomer cannot take it in between.
      const next = this.queue.shift();
      if (next) next();
      else this.free++;
    };
  }
}

const slots = new ThreadSlots();

/**
 * The parser thread of one body (json-parse-thread.ts): chunks go in with back-pressure, and
 * `result` settles with the parsed value, or with the error the body answers.
 */
class ParseThread {
  private readonly worker: Worker;
  private inFlight = 0;
  private drained: (() => void) | null = null;
  private settle!: { resolve: (value: unknown) => void; reject: (err: Error) => void };
  readonly result = new Promise<unknown>((resolve, reject) => {
    this.settle = { resolve, reject };
  });
  private finished = false;
  /** Every file the thread said it opens. */
  readonly files: string[] = [];
  /** Settles once the thread has ended. */
  readonly closed: Promise<void>;

  constructor(data: ParseThreadData, uploads: UploadedFiles) {
    this.result.catch(() => {});
    this.worker = new Worker(new URL('./json-parse-thread.ts', import.meta.url), {
      workerData: data,
      // Its garbage is short-lived pieces of the body: a small young generation keeps the
      // process's resident memory down (V8 sizes it by the machine's memory otherwise).
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.closed = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('message', (m: ParseThreadMessage) => this.receive(m, uploads));
    this.worker.on('error', (err) => this.finish(threadFailed(err)));
    this.worker.once('exit', () => this.finish(threadFailed()));
  }

  private receive(m: ParseThreadMessage, uploads: UploadedFiles): void {
    if ('ack' in m) {
      this.inFlight -= m.ack;
      if (this.inFlight <= IN_FLIGHT_BYTES) this.drained?.();
    } else if ('file' in m) {
      this.files.push(m.file);
      uploads.track(m.file);
    } else if ('done' in m) {
      for (const [ref, file] of m.files) uploads.adopt(ref, file);
      this.finish(null, m.done);
    } else if ('invalid' in m) this.finish(new CoreError('invalid_json', m.invalid));
    else this.finish(unreadable());
  }

  private finish(err: Error | null, value?: unknown): void {
    this.drained?.();
    if (this.finished) return;
    this.finished = true;
    if (err) this.settle.reject(err);
    else this.settle.resolve(value);
    // Every file is closed by the time the thread says it is done. (terminate resolves with the
    // exit code and does not reject.)
    this.worker.terminate().catch(() => {});
  }

  /** Sends the body's next bytes; resolves once the thread can take more. */
  async write(chunk: Buffer): Promise<void> {
    // The thread found the body invalid (or failed): the loop stops at once.
    if (this.finished) {
      await this.result;
      return;
    }
    const bytes = new Uint8Array(chunk); // a copy of its own, moved to the thread
    this.inFlight += bytes.byteLength;
    this.worker.postMessage({ chunk: bytes }, [bytes.buffer]);
    if (this.inFlight > IN_FLIGHT_BYTES) await new Promise<void>((resolve) => (this.drained = resolve));
    this.drained = null;
  }

  end(): Promise<unknown> {
    if (!this.finished) this.worker.postMessage({ end: true });
    return this.result;
  }

  /**
   * Stops the parse: its files are closed and its thread has ended when this resolves. The thread
   * is never ended before it closed its files: a thread's descriptors are the process's, so ending
   * it mid-write would leave them open for good. It stops once the chunk it is taking is done (a
   * bounded amount of work, however slowly it runs at its low priority on a busy machine).
   */
  async abort(): Promise<void> {
    if (!this.finished) this.worker.postMessage({ abort: true });
    await this.closed;
  }
}

/**
 * Parses a large JSON body as it arrives, in a thread of its own (json-parse-thread.ts), with
 * readBody's limits and parseJsonBody's answers: an empty body is no body, invalid JSON or
 * nesting deeper than MAX_JSON_DEPTH is 400 invalid_json. Long strings that `divert` names are
 * decoded into the request's files instead of being held (a 25 MB document in base64 is 33 MB of
 * JSON; POST /templates takes ten). This thread only counts the bytes and hands them over. On an
 * error the rest of the body is drained, not the request destroyed, so the error can still be
 * answered (the reply closes the connection).
 */
async function parseJsonStreaming(payload: Readable, opts: StreamingJsonOptions): Promise<unknown> {
  // A declared length over the limit is refused before a byte is read, as readBody does.
  if (Number(opts.contentLength) > opts.limit.bytes) throw tooLarge(opts.limit);
  const declared = opts.contentLength === undefined ? Number.NaN : Number(opts.contentLength);
  const sized = Number.isSafeInteger(declared) && declared >= 0;
  const { divert, uploads } = opts;
  const release = await slots.take(uploads.removed);
  let thread: ParseThread;
  try {
    thread = new ParseThread(
      {
        divertFrom: divert.from,
        maxDepth: MAX_JSON_DEPTH,
        paths: divert.paths,
        keep: { source: divert.keep.source, flags: divert.keep.flags },
        dir: uploads.dir,
        maxBytes: divert.maxBytes,
      },
      uploads,
    );
  } catch (err) {
    release();
    throw err;
  }
  // The client left and the request's files were removed: whatever is being written stops.
  const abandon = () => {
    thread.abort().catch(() => {}); // abort only waits for the thread's exit, which cannot fail
  };
  uploads.removed.addEventListener('abort', abandon);
  let received = 0;
  let failed = false;
  try {
    for await (const chunk of payload as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > opts.limit.bytes) throw tooLarge(opts.limit);
      if (sized && received > declared)
        throw new CoreError('invalid_request', 'The request body does not match its Content-Length');
      await thread.write(chunk);
    }
    if (sized && received !== declared)
      throw new CoreError('invalid_request', 'The request body does not match its Content-Length');
    return await thread.end();
  } catch (err) {
    failed = true;
    payload.resume();
    await thread.abort();
    if (err instanceof CoreError || (err as { code?: string }).code === THREAD_FAILED) throw err;
    throw unreadable();
  } finally {
    uploads.removed.removeEventListener('abort', abandon);
    thread.closed
      .then(async () => {
        release();
        // A file the thread created just after the request's files were removed (the client left
        // meanwhile): its removal came first, so it is removed again now that the thread is gone.
        // A body that failed (the client left, or it was refused) uses none of its files either,
        // whether or not the request's own removal has run yet (or runs at all: a connection
        // reset while the body is read is not always seen as an abort).
        if (failed || uploads.removed.aborted)
          await Promise.all(thread.files.map((p) => unlink(p).catch(() => {})));
      })
      .catch(() => {}); // the thread's exit cannot fail and each unlink is caught: nothing is left
  }
}

/** Bodies larger than this (or of unknown length) are parsed as they arrive, where a route lets them. */
const STREAM_JSON_FROM_BYTES = 1024 * 1024;
/** A document string this long is decoded to disk while it is read. */
const DIVERT_FROM_CHARS = 64 * 1024;

/**
 * The JSON parser of `app`'s context (REST, MCP). A body over 1 MB (or of unknown length) of a
 * request `uploadsFor` gives files to is parsed as it arrives (parseJsonStreaming), and each long
 * string at one of `documentPaths` (a document in base64, or a data: URI) is decoded straight to
 * one of the request's files, as multipart files are: its value becomes the file's reference
 * (core's services/uploads.ts). Ten 25 MB documents in one body (333 MB) were held as the body,
 * its text and the parsed strings; now as none of them (issue 18). Every other body is read whole.
 * A document that is an https:// URL is left as it is.
 */
export function streamJsonUploads(
  app: FastifyInstance,
  opts: { documentPaths: string[][]; uploadsFor(request: FastifyRequest): UploadedFiles | null },
): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', async (request: FastifyRequest, payload: Readable) => {
    // Over 1 MB, or chunked (no length given); a request without either has no body.
    const length = request.headers['content-length'];
    const large =
      length === undefined
        ? request.headers['transfer-encoding'] !== undefined
        : Number(length) > STREAM_JSON_FROM_BYTES;
    const uploads = large ? opts.uploadsFor(request) : null;
    if (!uploads) return jsonBody(request, payload);
    return parseJsonStreaming(payload, {
      limit: bodyLimitOf(request),
      contentLength: request.headers['content-length'],
      uploads,
      divert: {
        paths: opts.documentPaths,
        from: DIVERT_FROM_CHARS,
        keep: /^\s*https?:/i,
        maxBytes: MAX_DOCUMENT_BYTES,
      },
    });
  });
}
