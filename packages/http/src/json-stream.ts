import { type Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CoreError } from '@esign/core';
import parser from 'stream-json/parser.js';
import { MAX_JSON_DEPTH } from './json-body.ts';
import { type BodyLimit, tooLarge } from './limits.ts';

/** Where a long string goes instead of into memory; `end()` gives the value that stands for it. */
export interface LongStringSink {
  write(piece: string): Promise<void>;
  end(): Promise<string>;
}

export interface StreamingJsonOptions {
  limit: BodyLimit;
  contentLength: string | undefined;
  /** A string reaching this many characters is offered to `divert`. */
  divertFrom: number;
  /**
   * A sink for the string being read under object key `key` (null in an array), given its first
   * `head` characters; null keeps the string in memory.
   */
  divert(key: string | null, head: string): Promise<LongStringSink | null>;
}

const invalidJson = () => new CoreError('invalid_json', 'The request body is not valid JSON');

/** Counts the body's bytes against the limit and its Content-Length, as readBody does. */
function byteCounter(limit: BodyLimit, contentLength: string | undefined): Transform {
  const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
  const sized = Number.isSafeInteger(declared) && declared >= 0;
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > limit.bytes) return done(tooLarge(limit));
      if (sized && received > declared)
        return done(new CoreError('invalid_request', 'The request body does not match its Content-Length'));
      done(null, chunk);
    },
    flush(done) {
      if (sized && received !== declared)
        return done(new CoreError('invalid_request', 'The request body does not match its Content-Length'));
      done();
    },
  });
}

type Frame = { array: unknown[] } | { object: Record<string, unknown>; key: string | null };

/**
 * Builds the value of a JSON body from stream-json's tokens, as JSON.parse would, except that a
 * string `divert` takes is written to its sink piece by piece and replaced by what the sink ends
 * with. A 25 MB document in base64 (33 MB of JSON) is then never held as one string, and ten of
 * them (what POST /templates allows) never held at all.
 */
class Assembler extends Writable {
  root: unknown;
  private readonly stack: Frame[] = [];
  private parts: string[] = [];
  private length = 0;
  private sink: LongStringSink | null = null;
  private offered = false;
  private readonly opts: StreamingJsonOptions;

  constructor(opts: StreamingJsonOptions) {
    super({ objectMode: true });
    this.opts = opts;
  }

  private add(value: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) this.root = value;
    else if ('array' in top) top.array.push(value);
    // JSON.parse makes "__proto__" an own property; an assignment would set the prototype.
    else if (top.key === '__proto__')
      Object.defineProperty(top.object, top.key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else top.object[top.key!] = value;
  }

  private open(frame: Frame): void {
    if (this.stack.length + 1 > MAX_JSON_DEPTH)
      throw new CoreError(
        'invalid_json',
        `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`,
      );
    this.stack.push(frame);
  }

  private close(): void {
    const frame = this.stack.pop()!;
    this.add('array' in frame ? frame.array : frame.object);
  }

  private async chunk(piece: string): Promise<void> {
    if (this.sink) return this.sink.write(piece);
    this.parts.push(piece);
    this.length += piece.length;
    if (this.offered || this.length < this.opts.divertFrom) return;
    this.offered = true;
    const top = this.stack[this.stack.length - 1];
    const key = top && 'object' in top ? top.key : null;
    const held = this.parts.join('');
    this.sink = await this.opts.divert(key, held);
    if (!this.sink) {
      this.parts = [held];
      return;
    }
    this.parts = [];
    await this.sink.write(held);
  }

  private async token(t: parser.Token): Promise<void> {
    switch (t.name) {
      case 'startObject':
        return this.open({ object: {}, key: null });
      case 'startArray':
        return this.open({ array: [] });
      case 'endObject':
      case 'endArray':
        return this.close();
      case 'keyValue': {
        const top = this.stack[this.stack.length - 1];
        if (top && 'object' in top) top.key = t.value;
        return;
      }
      case 'startString':
        this.parts = [];
        this.length = 0;
        this.sink = null;
        this.offered = false;
        return;
      case 'stringChunk':
        return this.chunk(t.value);
      case 'endString': {
        const value = this.sink ? await this.sink.end() : this.parts.join('');
        this.sink = null;
        this.parts = [];
        return this.add(value);
      }
      case 'numberValue':
        return this.add(Number(t.value));
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        return this.add(t.value);
      default:
        return;
    }
  }

  override _write(t: parser.Token, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.token(t).then(() => done(), done);
  }
}

/**
 * Parses a JSON body as it arrives (see Assembler), with readBody's limits and parseJsonBody's
 * answers: an empty body is no body, invalid JSON or nesting deeper than MAX_JSON_DEPTH is 400
 * invalid_json.
 */
export async function parseJsonStreaming(payload: Readable, opts: StreamingJsonOptions): Promise<unknown> {
  // A declared length over the limit is refused before a byte is read, as readBody does.
  if (Number(opts.contentLength) > opts.limit.bytes) throw tooLarge(opts.limit);
  const assembler = new Assembler(opts);
  const tokens = parser.asStream({
    packKeys: true,
    streamKeys: false,
    packStrings: false,
    streamStrings: true,
    packNumbers: true,
    streamNumbers: false,
  });
  const counter = byteCounter(opts.limit, opts.contentLength);
  // Piped by hand, not by pipeline(): on an error the rest of the body is drained, not the request
  // destroyed, so the error can still be answered (the reply closes the connection).
  const onError = (err: Error) => counter.destroy(err);
  payload.on('error', onError);
  payload.pipe(counter);
  try {
    await pipeline(counter, tokens, assembler);
  } catch (err) {
    payload.unpipe(counter);
    payload.resume();
    if (err instanceof CoreError) throw err;
    if ((err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE')
      throw new CoreError('invalid_request', 'The request body could not be read');
    throw invalidJson();
  } finally {
    payload.off('error', onError);
  }
  return assembler.root;
}
