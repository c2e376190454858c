import { describe, expect, it } from 'vitest';
import { findUnstorableText } from '../src/trpc.ts';

describe('findUnstorableText: what PostgreSQL cannot store is found before any query', () => {
  it('a NUL character in a value, at any depth, with its path', () => {
    expect(findUnstorableText({ name: 'a\u0000b' })).toEqual({ path: ['name'], key: false });
    expect(
      findUnstorableText({ signers: [{ email: 'x' }, { metadata: { note: ['ok', '\u0000'] } }] }),
    ).toEqual({
      path: ['signers', 1, 'metadata', 'note', 1],
      key: false,
    });
  });

  it('a lone high or low surrogate; a well-formed pair (emoji) is fine', () => {
    expect(findUnstorableText({ q: 'x\ud800' })).toEqual({ path: ['q'], key: false });
    expect(findUnstorableText({ q: '\udc00y' })).toEqual({ path: ['q'], key: false });
    expect(findUnstorableText({ q: '\udc00\ud800' })).toEqual({ path: ['q'], key: false });
    expect(findUnstorableText({ q: 'ok 💥 ü 中' })).toBeNull();
  });

  it('object keys count too (metadata and prefill are stored as jsonb)', () => {
    expect(findUnstorableText({ metadata: { 'k\u0000': 1 } })).toEqual({ path: ['metadata'], key: true });
  });

  it('numbers, booleans, null and deep nesting are walked without recursion', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)?.path).toHaveLength(100_000);
    expect(findUnstorableText({ a: 1, b: true, c: null, d: undefined })).toBeNull();
  });
});
