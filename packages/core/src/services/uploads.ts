import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CoreDeps } from '../context.ts';
import { CoreError } from '../errors.ts';
import { bytesOf } from './storage.ts';

// Uploads are written to disk as they arrive, not held in memory (issue 18: a 25 MB document was
// held as its chunks, their concatenation, a 33 MB base64 string and the decoded copy). Multipart
// files (POST /templates, POST /documents/verify) are saved as they are; in a JSON body, a long
// `file` string is decoded from base64 while it is read (`Base64Upload`). The procedure's input
// names each file by a reference the adapter registers for that request only (`CoreDeps.uploads`);
// the document is read from disk when its turn comes, one document at a time. Without the
// request's registry, `upload:…` is not base64 and is refused.

/** The reference of an uploaded file: its SHA-256, so equal uploads give equal JSON (idempotency). */
const refOf = (sha256: string) => `upload:${sha256}`;

/** A file of this request on disk, or why a base64 value could not be one (reported per document). */
export type UploadedFile =
  | { path: string }
  | { problem: 'not_base64' | 'empty' }
  | { problem: 'too_large'; bytes: number };

/** One request's uploaded files on disk, removed together once the response is sent. */
export class UploadedFiles {
  readonly files = new Map<string, UploadedFile>();
  private readonly paths: string[] = [];
  private readonly dir: string;
  private problems = 0;
  /** Base64 values being written: a request that ends early leaves them unfinished. */
  private readonly open = new Set<Base64Upload>();
  constructor(dir: string) {
    this.dir = dir;
  }

  private async newPath(): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, `${randomUUID()}.upload`);
    this.paths.push(path);
    return path;
  }

  private register(sha256: string, path: string): string {
    const ref = refOf(sha256);
    if (!this.files.has(ref)) this.files.set(ref, { path });
    return ref;
  }

  /**
   * Writes `body` to a temporary file as it arrives and returns its reference. `truncated` is read
   * once the stream ended: true when the stream was cut at a size limit.
   */
  async save(body: NodeJS.ReadableStream, truncated: () => boolean): Promise<string> {
    const path = await this.newPath();
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(body, hashing, createWriteStream(path, { mode: 0o600 }));
    // Reported like @fastify/multipart's own limit error: each form words its 422.
    if (truncated())
      throw Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
    return this.register(hash.digest('hex'), path);
  }

  /** A base64 value (a JSON string read piece by piece) decoded to a file; see Base64Upload. */
  async base64(maxBytes: number): Promise<Base64Upload> {
    const path = await this.newPath();
    const sink: Base64Upload = new Base64Upload(path, maxBytes, (upload) => {
      this.open.delete(sink);
      if (upload.problem) {
        const ref = `upload:problem-${++this.problems}`;
        this.files.set(ref, upload.problem);
        return ref;
      }
      return this.register(upload.sha256, path);
    });
    this.open.add(sink);
    return sink;
  }

  /** Removes every file written (best effort; called once the response is sent or the client left). */
  async remove(): Promise<void> {
    const paths = this.paths.splice(0);
    this.files.clear();
    // A client that left mid-value: its file is closed before it is removed (no descriptor kept).
    for (const sink of this.open) sink.abort();
    this.open.clear();
    await Promise.all(paths.map((p) => unlink(p).catch(() => {})));
  }
}

/** A data: URI's head (`data:application/pdf;base64,`), as readDocumentFile strips it. */
const DATA_URI_HEAD = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,/i;
/** Characters of base64 and base64url; `=` only at the end, at most two. */
const ALPHABET = /^[A-Za-z0-9+/_-]*$/;
const HEAD_BYTES = 256;
/** Base64 characters decoded and written at once. */
const DECODE_CHARS = 64 * 1024;

type Outcome = { sha256: string; problem?: undefined } | { problem: Exclude<UploadedFile, { path: string }> };

/**
 * Decodes a base64 value given in pieces into a file, with readDocumentFile's rules for a value
 * held whole: surrounding and inner whitespace ignored, an optional data: URI head, base64 or
 * base64url, at most two `=` at the end, nothing decoded past `maxBytes`. What breaks a rule is
 * remembered and reported when the document is read, as the same 422 the whole value gets.
 */
export class Base64Upload {
  private head = '';
  private started = false;
  private carry = '';
  private padding = 0;
  private chars = 0;
  private decoded = 0;
  private problem: 'not_base64' | null = null;
  private readonly hash = createHash('sha256');
  private readonly out: WriteStream;
  private readonly maxBytes: number;
  private readonly done: (outcome: Outcome) => string;

  constructor(path: string, maxBytes: number, done: (outcome: Outcome) => string) {
    this.out = createWriteStream(path, { mode: 0o600 });
    this.out.on('error', () => {}); // reported by end()
    this.maxBytes = maxBytes;
    this.done = done;
  }

  /** Takes the next piece of the value; resolves when the file can take more (back-pressure). */
  async write(piece: string): Promise<void> {
    if (!this.started) {
      this.head += piece;
      const trimmed = this.head.trimStart();
      if (trimmed.length < HEAD_BYTES && !DATA_URI_HEAD.test(trimmed)) return;
      this.started = true;
      piece = trimmed.replace(DATA_URI_HEAD, '');
      this.head = '';
    }
    await this.take(piece);
  }

  private async take(piece: string): Promise<void> {
    if (this.problem) return;
    const clean = piece.replace(/\s+/g, '');
    if (clean.length === 0) return;
    const at = clean.indexOf('=');
    const body = at === -1 ? clean : clean.slice(0, at);
    if (this.padding > 0 && body.length > 0) return this.fail(); // characters after `=`
    if (!ALPHABET.test(body)) return this.fail();
    if (at !== -1) {
      const pad = clean.slice(at);
      if (!/^=+$/.test(pad) || this.padding + pad.length > 2) return this.fail();
      this.padding += pad.length;
    }
    this.chars += body.length;
    // Decoded and written 64 kB at a time: the JSON parser hands over 256 characters per piece.
    this.carry += body;
    if (this.carry.length < DECODE_CHARS) return;
    const whole = this.carry.length - (this.carry.length % 4);
    const text = this.carry.slice(0, whole);
    this.carry = this.carry.slice(whole);
    await this.emit(Buffer.from(text, 'base64'));
  }

  private fail(): void {
    this.problem = 'not_base64';
  }

  private async emit(bytes: Buffer): Promise<void> {
    this.decoded += bytes.length;
    if (this.decoded > this.maxBytes) return; // counted on, written no more (reported at the end)
    this.hash.update(bytes);
    if (!this.out.write(bytes)) await new Promise<void>((resolve) => this.out.once('drain', resolve));
  }

  /** Closes the file without finishing the value (the request ended before it did). */
  abort(): void {
    this.out.destroy();
  }

  /** Ends the value: its reference (`upload:<sha256>`, or one that reports what was wrong). */
  async end(): Promise<string> {
    if (!this.started) {
      this.started = true;
      await this.take(this.head.trim());
    }
    if (!this.problem && this.carry) await this.emit(Buffer.from(this.carry, 'base64'));
    await new Promise<void>((resolve, reject) =>
      this.out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    if (this.problem) return this.done({ problem: { problem: this.problem } });
    if (this.chars === 0) return this.done({ problem: { problem: this.padding ? 'not_base64' : 'empty' } });
    const estimated = Math.floor(((this.chars + this.padding) * 3) / 4);
    if (estimated > this.maxBytes + 2)
      return this.done({ problem: { problem: 'too_large', bytes: estimated } });
    if (this.decoded > this.maxBytes)
      return this.done({ problem: { problem: 'too_large', bytes: this.decoded } });
    if (this.decoded === 0) return this.done({ problem: { problem: 'empty' } });
    return this.done({ sha256: this.hash.digest('hex') });
  }
}

const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/** The uploaded file `file` names for this request, read from disk; null when it names none. */
export async function readUploaded(
  file: string,
  label: string,
  deps: CoreDeps,
  maxBytes: number,
): Promise<Uint8Array | null> {
  const upload = deps.uploads?.get(file);
  if (upload === undefined) return null;
  if ('problem' in upload) {
    // The words readDocumentFile uses for the same value held whole.
    if (upload.problem === 'empty') throw new CoreError('invalid_document', `${label} is empty`);
    if (upload.problem === 'too_large')
      throw new CoreError('document_too_large', `${label} is ${MB(upload.bytes)}; the limit is 25 MB`);
    throw new CoreError('invalid_document', `${label} is neither valid base64 nor an https:// URL`);
  }
  const { size } = await stat(upload.path);
  if (size === 0) throw new CoreError('invalid_document', `${label} is empty`);
  if (size > maxBytes) throw new CoreError('document_too_large', `${label} is larger than 25 MB`);
  return bytesOf(await readFile(upload.path));
}
