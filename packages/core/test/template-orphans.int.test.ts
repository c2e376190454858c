import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHarness, codeOf, startCore } from './caller.ts';

// Issue 9: "A failed request leaves no stored files behind". Documents are stored before the
// transaction that records them; a create that fails afterwards removes what it stored.

let h: CoreHarness;
let key: string;
beforeAll(async () => {
  h = await startCore();
  key = (await h.account()).key;
});
afterAll(() => h?.close());

/** Every file under the local store (DATA_DIR/files), recursively. */
function storedFiles(): string[] {
  const walk = (dir: string): string[] => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  };
  return walk(join(h.config.DATA_DIR, 'files'));
}

const signature = (page: number) => ({
  type: 'signature' as const,
  role: 'Client',
  areas: [{ page, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }],
});

describe('POST /templates: a failed create leaves no stored files behind', () => {
  it('a bad second document (422 invalid_document) removes the first one already stored', async () => {
    const caller = await h.as(key);
    const before = storedFiles();
    const code = await codeOf(
      caller.templates.create({
        documents: [
          { file: b64(await plainPdf(1)) },
          { file: b64(new TextEncoder().encode('%PDF-1.7 junk')) },
        ],
      }),
    );
    expect(code).toBe('invalid_document');
    expect(storedFiles()).toEqual(before);
  });

  it('a field on a page the document lacks (422 invalid_field) removes the stored documents', async () => {
    const caller = await h.as(key);
    const before = storedFiles();
    const code = await codeOf(
      caller.templates.create({
        documents: [{ file: b64(await plainPdf(1)) }, { file: b64(await plainPdf(2)) }],
        fields: [signature(9)],
      }),
    );
    expect(code).toBe('invalid_field');
    expect(storedFiles()).toEqual(before);
  });

  it('a successful create keeps its documents (the check above can fail)', async () => {
    const caller = await h.as(key);
    const before = storedFiles().length;
    await caller.templates.create({ documents: [{ file: b64(await plainPdf(1)) }], fields: [signature(1)] });
    expect(storedFiles().length).toBeGreaterThan(before);
  });
});
