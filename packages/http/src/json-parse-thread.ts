/**
 * The thread that parses one large JSON body (json-stream.ts starts it): stream-json's tokenizer,
 * the Assembler, and each long `file` string decoded from base64 into a file (Base64Upload). On
 * the thread that answers HTTP, tokenizing and decoding a 33 MB body took about 0.3 s of CPU in
 * 64 kB slices, and every other request waited behind them (issue 18). Here it runs at a lower
 * CPU priority than the process's other threads, so they are served first on a busy machine.
 *
 * Messages in: `{ chunk }` (the body's next bytes), `{ end: true }`, `{ abort: true }`.
 * Messages out: `{ ack }` (bytes taken, for back-pressure), `{ file }` (a path about to be written,
 * so the request can remove it whatever happens), then one of `{ done, files }`, `{ error }` or
 * `{ aborted: true }`; every file is closed before that last message.
 */
import { mkdir } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { parentPort, workerData } from 'node:worker_threads';
import { Base64Upload, type UploadedFile, uploadFileName, uploadRef } from '@esign/core/uploads';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import { Assembler, InvalidJson } from './json-assembler.ts';

/** What the thread is given: which strings become files, and where. */
export interface ParseThreadData {
  divertFrom: number;
  maxDepth: number;
  /** Where in the body long strings are files: object keys from the root, `*` for any element. */
  paths: string[][];
  /** A string at one of `paths` whose head matches this stays a string (an https:// URL). */
  keep: { source: string; flags: string };
  dir: string;
  maxBytes: number;
}

export type ParseThreadMessage =
  | { ack: number }
  | { file: string }
  | { done: unknown; files: [string, UploadedFile][] }
  /** Why the body is invalid_json, in the words of the answer. */
  | { invalid: string }
  | { aborted: true };

/** How much nicer (lower in CPU priority) than the process this thread runs (Linux: per thread). */
const NICENESS = 10;

const port = parentPort!;
const data = workerData as ParseThreadData;
const keep = new RegExp(data.keep.source, data.keep.flags);
/** Whether a string at `at` is one of the documents (`*` stands for any element of an array). */
const isDocument = (at: string[]) =>
  data.paths.some((path) => path.length === at.length && path.every((key, i) => key === at[i]));
const send = (message: ParseThreadMessage) => port.postMessage(message);

try {
  setPriority(Math.min(19, getPriority() + NICENESS));
} catch {
  // A platform without per-thread priorities: the thread keeps the process's.
}

const open = new Set<Base64Upload>();
const files: [string, UploadedFile][] = [];
let problems = 0;

async function divert(at: string[], head: string): Promise<Base64Upload | null> {
  if (!isDocument(at) || keep.test(head)) return null;
  await mkdir(data.dir, { recursive: true });
  const path = join(data.dir, uploadFileName());
  send({ file: path });
  const sink: Base64Upload = new Base64Upload(path, data.maxBytes, (outcome) => {
    open.delete(sink);
    const ref = outcome.problem ? `upload:problem-${++problems}` : uploadRef(outcome.sha256);
    files.push([ref, outcome.problem ?? { path }]);
    return ref;
  });
  open.add(sink);
  return sink;
}

const parse = jsonParser({
  packKeys: true,
  streamKeys: false,
  packStrings: false,
  streamStrings: true,
  packNumbers: true,
  streamNumbers: false,
}) as (chunk: unknown) => unknown;
// UTF-8 split across chunks is joined by the decoder.
const decoder = new StringDecoder('utf8');
const assembler = new Assembler({ divertFrom: data.divertFrom, maxDepth: data.maxDepth, divert });

/** Feeds the tokens one tokenizer call returned (none, one, or many) to the assembler. */
async function take(out: unknown): Promise<void> {
  if (out === none) return;
  for (const token of isMany(out) ? (getManyValues(out) as Token[]) : [out as Token]) {
    const pending = assembler.token(token);
    if (pending) await pending;
  }
}

async function closeAll(): Promise<void> {
  await Promise.all([...open].map((sink) => sink.abort()));
  open.clear();
}

type Incoming = { chunk: Uint8Array } | { end: true } | { abort: true };

/** Set once the last message is sent, or once the request is abandoned (chunks still queued are dropped). */
let stopped = false;
async function handle(message: Incoming): Promise<void> {
  if (stopped) return;
  try {
    if ('chunk' in message) {
      const { buffer, byteOffset, byteLength } = message.chunk;
      await take(parse(decoder.write(Buffer.from(buffer, byteOffset, byteLength))));
      send({ ack: byteLength });
    } else if ('end' in message) {
      const rest = decoder.end();
      if (rest) await take(parse(rest));
      await take(parse(none));
      stopped = true;
      send({ done: assembler.root, files });
    }
  } catch (err) {
    stopped = true;
    await closeAll();
    // The tokenizer's own errors (and a file that could not be written) answer as they did when
    // the body was parsed on the HTTP thread.
    send({ invalid: err instanceof InvalidJson ? err.message : 'The request body is not valid JSON' });
  }
}

// One message at a time, in order: a chunk waits for the file writes of the one before.
let queue = Promise.resolve();
port.on('message', (message: Incoming) => {
  if ('abort' in message) {
    // Ahead of the chunks still queued: once the one being taken is done, its files are closed.
    stopped = true;
    queue = queue.then(async () => {
      await closeAll();
      send({ aborted: true });
    });
    return;
  }
  queue = queue.then(() => handle(message));
});
