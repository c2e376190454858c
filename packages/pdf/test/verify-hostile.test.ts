import { beforeAll, describe, expect, it } from 'vitest';
import {
  inspectSignatures,
  isIntact,
  loadSigningIdentity,
  MAX_REVISIONS_CHECKED,
  sealDocument,
} from '../src/seal/index.ts';
import { MAX_SECTIONS } from '../src/verify/file.ts';
import { appendUpdate, trailerOf } from './corpus/update.ts';
import { sourcePdf, tempDir } from './seal-helpers.ts';

// Issue 40, "Done when": verify never goes above its limits on hostile files. Each file is a seal
// of ours followed by updates written to exhaust a reader: a /Prev chain that loops, thousands of
// revisions, a page tree thousands of nodes deep, a value nested a hundred thousand times. Each
// must come back `modified`, with the limit named, within the test's time.

let sealed: Uint8Array;

beforeAll(async () => {
  const identity = await loadSigningIdentity({ dataDir: tempDir('verify-hostile') });
  sealed = await sealDocument({
    pdf: await sourcePdf(1),
    values: [{ type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.4, h: 0.04 }], value: 'Hostile' }],
    identity,
    name: 'hostile',
  });
});

const latin1 = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const concat = (a: Uint8Array, b: string) => new Uint8Array(Buffer.concat([a, Buffer.from(b, 'latin1')]));

/** An update with no object: an empty xref section whose trailer names the previous one. */
function emptyUpdate(
  bytes: Uint8Array,
  prev: number,
  size: number,
  root: string,
  prevOverride?: number,
): Uint8Array {
  const at = bytes.length;
  return concat(
    bytes,
    `xref\n0 0\ntrailer\n<< /Size ${size} /Root ${root} /Prev ${prevOverride ?? prev} >>\nstartxref\n${at}\n%%EOF\n`,
  );
}

describe('issue 40: verify stays within its limits on hostile files [modified]', () => {
  it('an update whose /Prev names its own section (a /Prev loop) is an unreadable update, not an endless walk', async () => {
    const { size, root } = trailerOf(sealed);
    const at = sealed.length;
    const looped = emptyUpdate(sealed, 0, size, root, at);
    const checks = await inspectSignatures(looped);
    expect(isIntact(checks)).toBe(false);
    expect(checks[0]!.valid).toBe(true);
    expect(checks[0]!.changesAfter.map((c) => c.description).join('; ')).toMatch(/loops back/);
  });

  it(`10,000 empty revisions after the seal: more than ${MAX_SECTIONS} sections are not walked, and the file is not intact`, async () => {
    const { size, root, startxref } = trailerOf(sealed);
    const parts: string[] = [];
    let length = sealed.length;
    let prev = startxref;
    for (let i = 0; i < 10_000; i++) {
      const part = `xref\n0 0\ntrailer\n<< /Size ${size} /Root ${root} /Prev ${prev} >>\nstartxref\n${length}\n%%EOF\n`;
      prev = length;
      length += part.length;
      parts.push(part);
    }
    const bytes = concat(sealed, parts.join(''));
    const started = performance.now();
    const checks = await inspectSignatures(bytes);
    const seconds = (performance.now() - started) / 1000;
    expect(isIntact(checks)).toBe(false);
    expect(checks.every((c) => !c.valid || c.modifiedAfterSigning)).toBe(true);
    // Not a timing assertion of speed (bench/ measures that): a bound against an endless walk.
    expect(seconds).toBeLessThan(30);
  }, 60_000);

  it(`more than ${MAX_REVISIONS_CHECKED} readable revisions after the first signature are not compared one by one`, async () => {
    const { size, root, startxref } = trailerOf(sealed);
    let bytes = sealed;
    let prev = startxref;
    for (let i = 0; i <= MAX_REVISIONS_CHECKED; i++) {
      const at = bytes.length;
      bytes = emptyUpdate(bytes, prev, size, root);
      prev = at;
    }
    const [seal] = await inspectSignatures(bytes);
    expect(seal!.changesAfter).toEqual([
      expect.objectContaining({
        kind: 'unreadable_revision',
        description: expect.stringContaining(`at most ${MAX_REVISIONS_CHECKED}`),
      }),
    ]);
  });

  it('a page tree 5,000 /Pages nodes deep put in by an update is a page tree that cannot be walked', async () => {
    const { size, root } = trailerOf(sealed);
    const rootNum = Number(root.split(' ')[0]);
    const text = Buffer.from(sealed).toString('latin1');
    const catalog = new RegExp(`\\n${rootNum} 0 obj\\s*(<<[\\s\\S]*?>>)\\s*endobj`).exec(text)![1]!;
    const first = size;
    const objects = [];
    for (let i = 0; i < 5_000; i++)
      objects.push({ num: first + i, body: `<< /Type /Pages /Kids [${first + i + 1} 0 R] /Count 1 >>` });
    objects.push({ num: first + 5_000, body: '<< /Type /Page /MediaBox [0 0 10 10] >>' });
    objects.push({ num: rootNum, body: catalog.replace(/\/Pages\s+\d+\s+\d+\s+R/, `/Pages ${first} 0 R`) });
    const bytes = appendUpdate(sealed, { objects });
    const [seal] = await inspectSignatures(bytes);
    expect(seal!.valid).toBe(true);
    expect(seal!.changesAfter.map((c) => c.description)).toContain('the page tree cannot be walked');
  }, 60_000);

  it('a value nested 100,000 arrays deep in an update is refused by the reader (no stack overflow): the revision is unreadable', async () => {
    const { size } = trailerOf(sealed);
    const bytes = appendUpdate(sealed, {
      objects: [{ num: size, body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }],
    });
    const [seal] = await inspectSignatures(bytes);
    expect(seal!.valid).toBe(true);
    expect(seal!.changesAfter).toContainEqual(
      expect.objectContaining({
        kind: 'unreadable_revision',
        description: expect.stringContaining('nesting too deep'),
      }),
    );
  });

  it('a file that is only a startxref pointing at itself reads as unsigned without a walk', async () => {
    expect(await inspectSignatures(latin1('%PDF-1.7\nstartxref\n9\n%%EOF\n'))).toEqual([]);
  });
});
