import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalBodyHash } from '../src/idempotency.ts';

// The Idempotency-Key rule (same key, different body: 422 idempotency_key_reused) compares a hash
// of the body's canonical JSON. Issue 18: the hash is fed piece by piece instead of from one
// string the size of the body; it must stay exactly the hash of that string, so keys claimed
// before the change still match their retries.

/** The canonical JSON string the hash was computed from before. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('Idempotency-Key body hash (issue 18)', () => {
  it('equals the SHA-256 of the canonical JSON for documents, text with escapes and unicode, numbers, null and nesting', () => {
    const base64 = Buffer.alloc(300_000, 7).toString('base64');
    const bodies: unknown[] = [
      {},
      { name: 'Lease', documents: [{ name: 'a.pdf', file: base64 }], fields: [] },
      { z: 1, a: [true, false, null, 1.5, -0], m: { b: 'x', a: 'y' } },
      { long: `${'q'.repeat(5000)}"quoted"\\ and \n newline` },
      { long: `${'é'.repeat(5000)} 日本語 😀` },
      { long: `${'a'.repeat(5000)}\ud800 lone surrogate` },
      { long: `${'b'.repeat(5000)}\u0001 control` },
      { u: undefined, n: Number.NaN, nested: [[[{ deep: ['x'] }]]] },
    ];
    for (const body of bodies) expect(canonicalBodyHash(body)).toBe(sha(canonical(body)));
  });

  it('key order does not change the hash; any change to a document does', () => {
    const file = Buffer.alloc(100_000, 1).toString('base64');
    const a = canonicalBodyHash({ name: 'x', documents: [{ file, name: 'd' }] });
    expect(canonicalBodyHash({ documents: [{ name: 'd', file }], name: 'x' })).toBe(a);
    const changed = `${file.slice(0, 50_000)}B${file.slice(50_001)}`;
    expect(canonicalBodyHash({ name: 'x', documents: [{ file: changed, name: 'd' }] })).not.toBe(a);
  });
});
