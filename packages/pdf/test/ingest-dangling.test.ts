import { describe, expect, it } from 'vitest';
import { ingestDocument } from '../src/ingest/index.ts';
import { inspectSignatures, isIntact, sealDocument } from '../src/seal/index.ts';
import { appendLtvRevision } from './corpus/doc-timestamp.ts';
import { corpusIdentity } from './corpus/identity.ts';
import { contractTemplate, T } from './corpus/templates.ts';
import { createTestTsa } from './corpus/tsa.ts';
import { flateStream } from './corpus/update.ts';
import { pdfText, tempDir, writeTemp } from './seal-helpers.ts';

// Issue 30, item 3: a page reference to an object the file does not define is removed at ingest,
// so the sealed document holds no slot a later revision could fill.

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('issue 30, item 3: dangling page references are repaired at ingest', () => {
  it('a page /Contents entry naming a missing object 900 is removed, with a warning; the rest of the page stays', async () => {
    const template = contractTemplate({ dangling: true });
    expect(latin1(template)).toContain(`${T.dangling} 0 R`);
    const doc = await ingestDocument({ bytes: template, isolate: false });
    expect(latin1(doc.pdf)).not.toContain(`${T.dangling} 0 R`);
    expect(doc.warnings).toContain(
      'The PDF referred to 1 object it does not contain; that reference was removed',
    );
    const dir = tempDir('dangling');
    expect(pdfText(writeTemp(dir, 'stored.pdf', doc.pdf), 1)).toContain('Fee: EUR 4,000');
  });

  it('a template without dangling references is stored byte for byte as uploaded', async () => {
    const template = contractTemplate();
    const doc = await ingestDocument({ bytes: template, isolate: false });
    expect(Buffer.from(doc.pdf).equals(Buffer.from(template))).toBe(true);
  });

  it('sealed after ingest, a document-timestamp revision that defines object 900 shows nothing new and changes nothing', async () => {
    const doc = await ingestDocument({ bytes: contractTemplate({ dangling: true }), isolate: false });
    const sealed = await sealDocument({
      pdf: doc.pdf,
      values: [],
      identity: await corpusIdentity(),
      name: 'c',
    });
    const tsa = createTestTsa();
    const attacked = await appendLtvRevision(sealed, {
      timestamp: { tsa },
      objects: [{ num: T.dangling, body: flateStream('', 'BT /F1 14 Tf 60 700 Td (Fee: EUR 40,000) Tj ET') }],
    });
    const dir = tempDir('dangling-sealed');
    // What readers show is what was sealed (page 1 draws no object 900 any more).
    expect(pdfText(writeTemp(dir, 'attacked.pdf', attacked), 1)).toBe(
      pdfText(writeTemp(dir, 'sealed.pdf', sealed), 1),
    );
    const checks = await inspectSignatures(attacked);
    expect(isIntact(checks)).toBe(true);
    expect(checks[0]!.changesAfter).toEqual([]);
  });
});
