import type { Token } from 'stream-json/core/parser.js';

// Builds a JSON value from stream-json's tokens. Runs in the thread that parses large bodies
// (json-parse-thread.ts): it imports nothing of the service.

/** Where a long string goes instead of into memory; `end()` gives the value that stands for it. */
export interface LongStringSink {
  write(piece: string): Promise<void>;
  end(): Promise<string>;
}

export interface AssemblerOptions {
  /** A string reaching this many characters is offered to `divert`. */
  divertFrom: number;
  /** Arrays and objects nested deeper than this are invalid_json. */
  maxDepth: number;
  /**
   * A sink for the string being read at `path` (the object keys from the root, `*` for an array's
   * element: `["documents", "*", "file"]`), given its first `head` characters; null keeps the
   * string in memory.
   */
  divert(path: string[], head: string): Promise<LongStringSink | null>;
}

/** The body is not JSON the API takes (reported as 400 invalid_json). */
export class InvalidJson extends Error {}

type Frame = { array: unknown[] } | { object: Record<string, unknown>; key: string | null };

/**
 * Builds the value of a JSON body from stream-json's tokens, as JSON.parse would, except that a
 * string `divert` takes is written to its sink piece by piece and replaced by what the sink ends
 * with. A 25 MB document in base64 (33 MB of JSON) is then never held as one string, and ten of
 * them (what POST /templates allows) never held at all. Tokens are taken synchronously; only a
 * sink's writes are awaited (a stream of token objects cost a third of the parse).
 */
export class Assembler {
  root: unknown;
  private readonly stack: Frame[] = [];
  private parts: string[] = [];
  private length = 0;
  private sink: LongStringSink | null = null;
  private offered = false;
  private readonly opts: AssemblerOptions;

  constructor(opts: AssemblerOptions) {
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
    if (this.stack.length + 1 > this.opts.maxDepth)
      throw new InvalidJson(
        `The request body nests arrays or objects deeper than ${this.opts.maxDepth} levels`,
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
    const path = this.stack.map((frame) => ('array' in frame ? '*' : (frame.key ?? '')));
    const held = this.parts.join('');
    this.sink = await this.opts.divert(path, held);
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
