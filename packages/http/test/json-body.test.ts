import { PassThrough } from 'node:stream';
import { CoreError } from '@esign/core';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonBody, readBody } from '../src/json-body.ts';

const limit = { bytes: 1000, code: 'invalid_request' as const };

describe('readBody: body limits', () => {
  it('a declared Content-Length over the limit is refused before a byte is read', async () => {
    const stream = new PassThrough();
    let read = false;
    stream.on('data', () => {
      read = true;
    });
    stream.pause();
    await expect(readBody(stream, '1001', limit)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(read).toBe(false);
    await expect(
      readBody(new PassThrough(), '5000', { bytes: 10, code: 'document_too_large' }),
    ).rejects.toMatchObject({ code: 'document_too_large' });
  });

  it('a body that grows past the limit while streaming is refused then, and the rest is not kept', async () => {
    const stream = new PassThrough();
    const result = readBody(stream, undefined, limit);
    stream.write(Buffer.alloc(600));
    stream.write(Buffer.alloc(600));
    await expect(result).rejects.toBeInstanceOf(CoreError);
    // Later data is drained, not buffered: the stream keeps flowing with no reader left.
    for (let i = 0; i < 100; i++) stream.write(Buffer.alloc(64 * 1024));
    await new Promise((r) => setImmediate(r));
    expect(stream.readableLength).toBe(0);
  });

  it('a body shorter than its Content-Length is invalid_request; a body at the limit is read', async () => {
    const short = new PassThrough();
    const shortResult = readBody(short, '10', limit);
    short.end('abc');
    await expect(shortResult).rejects.toMatchObject({ code: 'invalid_request' });
    const exact = new PassThrough();
    const exactResult = readBody(exact, '1000', limit);
    exact.end(Buffer.alloc(1000, 0x20));
    expect((await exactResult).length).toBe(1000);
  });

  it('with a Content-Length, chunks land in one buffer of that size in order (issue 18); more bytes than declared are refused', async () => {
    const stream = new PassThrough();
    const result = readBody(stream, '900', limit);
    for (let i = 0; i < 9; i++) stream.write(Buffer.alloc(100, 0x30 + i));
    stream.end();
    const body = await result;
    expect(body.length).toBe(900);
    expect(body.toString()).toBe(Array.from({ length: 9 }, (_, i) => String(i).repeat(100)).join(''));
    const longer = new PassThrough();
    const longerResult = readBody(longer, '10', limit);
    longer.end(Buffer.alloc(11));
    await expect(longerResult).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('parseJsonBody', () => {
  it('an empty or blank body is no body; invalid JSON is invalid_json', () => {
    expect(parseJsonBody(Buffer.from(''))).toBeUndefined();
    expect(parseJsonBody(Buffer.from('  \n'))).toBeUndefined();
    expect(() => parseJsonBody(Buffer.from('{"a":'))).toThrow(
      expect.objectContaining({ code: 'invalid_json' }),
    );
  });

  it(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is 400 invalid_json (100,000 deep: no stack overflow)`, () => {
    const deep = (n: number) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`);
    expect(() => parseJsonBody(deep(100_000))).toThrow(expect.objectContaining({ code: 'invalid_json' }));
    expect(() => parseJsonBody(deep(MAX_JSON_DEPTH + 1))).toThrow(
      expect.objectContaining({ code: 'invalid_json' }),
    );
    expect(parseJsonBody(deep(MAX_JSON_DEPTH))).toBeDefined();
    const objects = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => parseJsonBody(Buffer.from(objects))).toThrow(
      expect.objectContaining({ code: 'invalid_json' }),
    );
  });

  it('nestsDeeperThan counts arrays and objects alike, wide values are shallow', () => {
    expect(nestsDeeperThan({ a: [{ b: [] }] }, 4)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
    expect(
      nestsDeeperThan(
        Array.from({ length: 10_000 }, () => ({ x: 1 })),
        2,
      ),
    ).toBe(false);
  });
});
