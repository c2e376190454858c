import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';

// Decoding a base64 value that arrives in pieces (a JSON string read as it arrives) into a file.
// Imports nothing of the service: it runs in the thread that parses a large JSON body
// (packages/http/src/json-stream.ts), which loads no more than it needs.

/** A file of this request on disk, or why a base64 value could not be one (reported per document). */
export type UploadedFile =
  | { path: string }
  | { problem: 'not_base64' | 'empty' }
  | { problem: 'too_large'; bytes: number };

/** The reference of an uploaded file: its SHA-256, so equal uploads give equal JSON (idempotency). */
export const uploadRef = (sha256: string) => `upload:${sha256}`;

/** A data: URI's head (`data:application/pdf;base64,`), stripped before the base64. */
export const DATA_URI_HEAD = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,/i;
/** The characters of base64 and base64url. */
const BASE64_CHARS = 'A-Za-z0-9+/_-';
const ALPHABET = new RegExp(`^[${BASE64_CHARS}]*$`);
/** A whole base64 or base64url value, whitespace removed: its characters, then at most two `=`. */
export const WHOLE_BASE64 = new RegExp(`^[${BASE64_CHARS}]+={0,2}$`);
const HEAD_BYTES = 256;
/** Base64 characters decoded and written at once. */
const DECODE_CHARS = 64 * 1024;

export type Base64Outcome =
  | { sha256: string; problem?: undefined }
  | { problem: Exclude<UploadedFile, { path: string }> };

/**
 * Decodes a base64 value given in pieces into a file, with the rules readDocumentFile applies to a
 * value held whole (DATA_URI_HEAD, WHOLE_BASE64): surrounding and inner whitespace ignored, an
 * optional data: URI head, base64 or base64url, at most two `=` at the end, nothing decoded past
 * `maxBytes`. What breaks a rule is remembered and reported when the document is read, as the
 * same 422 the whole value gets.
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
  private readonly done: (outcome: Base64Outcome) => string;

  constructor(path: string, maxBytes: number, done: (outcome: Base64Outcome) => string) {
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
  async abort(): Promise<void> {
    if (this.out.closed) return;
    const closed = new Promise<void>((resolve) => this.out.once('close', resolve));
    this.out.destroy();
    await closed;
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
