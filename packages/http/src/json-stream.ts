import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CoreError } from '@esign/core';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
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

type Frame = { array: unknown[] } | { object: Record<string, unknown>; key: string | null };

/**
 * Builds the value of a JSON body from stream-json's tokens, as JSON.parse would, except that a
 * string `divert` takes is written to its sink piece by piece and replaced by what the sink ends
 * with. A 25 MB document in base64 (33 MB of JSON) is then never held as one string, and ten of
 * them (what POST /templates allows) never held at all. Tokens are taken synchronously; only a
 * sink's writes are awaited (a stream of token objects cost a third of the parse).
 */
class Assembler {
  root: unknown;
  private readonly stack: Frame[] = [];
  private parts: string[] = [];
  private length = 0;
  private sink: LongStringSink | null = null;
  private offered = false;
  private readonly opts: StreamingJsonOptions;

  constructor(opts: StreamingJsonOptions) {
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

  private chunk(piece: string): Promise<void> | void {
    if (this.sink) return this.sink.write(piece);
    this.parts.push(piece);
    this.length += piece.length;
    if (this.offered || this.length < this.opts.divertFrom) return;
    this.offered = true;
    return this.offer();
  }

  private async offer(): Promise<void> {
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

  private async endString(): Promise<void> {
    const value = this.sink ? await this.sink.end() : this.parts.join('');
    this.sink = null;
    this.parts = [];
    this.add(value);
  }

  /** Takes one token; a promise only while a long string's sink is written to. */
  token(t: Token): Promise<void> | void {
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
      case 'endString':
        if (this.sink) return this.endString();
        this.add(this.parts.join(''));
        this.parts = [];
        return;
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
}

/** The tokens a stream-json stage returned (none, one, or many). */
function tokensOf(out: unknown): Token[] {
  if (out === none) return [];
  return isMany(out) ? (getManyValues(out) as Token[]) : [out as Token];
}

/**
 * Parses a JSON body as it arrives (see Assembler), with readBody's limits and parseJsonBody's
 * answers: an empty body is no body, invalid JSON or nesting deeper than MAX_JSON_DEPTH is 400
 * invalid_json. On an error the rest of the body is drained, not the request destroyed, so the
 * error can still be answered (the reply closes the connection).
 */
export async function parseJsonStreaming(payload: Readable, opts: StreamingJsonOptions): Promise<unknown> {
  // A declared length over the limit is refused before a byte is read, as readBody does.
  if (Number(opts.contentLength) > opts.limit.bytes) throw tooLarge(opts.limit);
  const declared = opts.contentLength === undefined ? Number.NaN : Number(opts.contentLength);
  const sized = Number.isSafeInteger(declared) && declared >= 0;
  // stream-json's tokenizer itself, called synchronously (its stream wrappers cost a third of the
  // parse); UTF-8 split across chunks is joined by the decoder.
  const decoder = new StringDecoder('utf8');
  const parse = jsonParser({
    packKeys: true,
    streamKeys: false,
    packStrings: false,
    streamStrings: true,
    packNumbers: true,
    streamNumbers: false,
  }) as (chunk: unknown) => unknown;
  const assembler = new Assembler(opts);
  const take = async (out: unknown) => {
    for (const t of tokensOf(out)) {
      const pending = assembler.token(t);
      if (pending) await pending;
    }
  };
  let received = 0;
  try {
    for await (const chunk of payload as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > opts.limit.bytes) throw tooLarge(opts.limit);
      if (sized && received > declared)
        throw new CoreError('invalid_request', 'The request body does not match its Content-Length');
      await take(parse(decoder.write(chunk)));
    }
    if (sized && received !== declared)
      throw new CoreError('invalid_request', 'The request body does not match its Content-Length');
    const rest = decoder.end();
    if (rest) await take(parse(rest));
    await take(parse(none));
  } catch (err) {
    payload.resume();
    if (err instanceof CoreError) throw err;
    if (
      (err as { code?: string }).code === 'ECONNRESET' ||
      (err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE'
    )
      throw new CoreError('invalid_request', 'The request body could not be read');
    throw invalidJson();
  }
  return assembler.root;
}
