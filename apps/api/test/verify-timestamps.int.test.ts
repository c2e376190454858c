import { b64 } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealDocument } from '../../../packages/pdf/src/seal/index.ts';
import { appendLtvRevision } from '../../../packages/pdf/test/corpus/doc-timestamp.ts';
import { corpusIdentity } from '../../../packages/pdf/test/corpus/identity.ts';
import { contractTemplate } from '../../../packages/pdf/test/corpus/templates.ts';
import { createTestTsa } from '../../../packages/pdf/test/corpus/tsa.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 30, item 5, as POST /documents/verify answers it: a timestamp raises the level only when
// its time order is possible and its TSA is named; the answer names the TSA, says whether its chain
// reaches a trusted root, and names every timestamp not counted (in `summary` too).

let t: TestApp;
let owner: TestAccount;
let sealed: Uint8Array;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db);
  sealed = await sealDocument({
    pdf: contractTemplate(),
    values: [],
    identity: await corpusIdentity(),
    name: 'contract',
  });
}, 60_000);
afterAll(() => t.close());

const verify = async (bytes: Uint8Array) => {
  const res = await t.api('POST', 'documents/verify', { key: owner.key, body: { file: b64(bytes) } });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('issue 30 item 5: POST /documents/verify and the timestamps that count for the level', () => {
  it('a document timestamp dated 2020-01-01 by a self-made TSA leaves the seal at B-B, and the answer names it (field and summary)', async () => {
    const oldTsa = createTestTsa('Backdating Time Stamping Unit', {
      notBefore: new Date('2019-01-01T00:00:00Z'),
    });
    const body = await verify(
      await appendLtvRevision(sealed, { timestamp: { tsa: oldTsa, time: new Date('2020-01-01T00:00:00Z') } }),
    );
    expect(body).toMatchObject({ verdict: 'intact_signature', level: 'B-B' });
    const [seal, stamp] = body.signatures;
    expect(seal).toMatchObject({ kind: 'certification', level: 'B-B', timestamp_time: null });
    expect(seal.timestamp_issues).toEqual([
      expect.stringMatching(
        /^the document timestamp by .*CN=Backdating Time Stamping Unit dated 2020-01-01T00:00:00\.000Z is earlier than the signing certificate's validity/,
      ),
    ]);
    expect(stamp).toMatchObject({ kind: 'document_timestamp', valid: true, timestamp_trusted: false });
    expect(body.summary).toContain('Not counted: the document timestamp by');
    expect(body.summary).toContain('dated 2020-01-01T00:00:00.000Z');
  });

  it('a document timestamp whose time is possible raises the seal to B-T; the answer names its TSA and says its chain reaches no trusted root', async () => {
    const body = await verify(await appendLtvRevision(sealed, { timestamp: { tsa: createTestTsa() } }));
    expect(body).toMatchObject({ verdict: 'intact_signature', level: 'B-T' });
    expect(body.signatures[0]).toMatchObject({
      level: 'B-T',
      timestamp_authority: expect.stringContaining('CN=Corpus Time Stamping Unit'),
      timestamp_trusted: false,
    });
    expect(body.signatures[0].timestamp_issues).toBeUndefined();
    expect(body.summary).toMatch(
      /Time certified by .*CN=Corpus Time Stamping Unit, whose chain does not reach a trusted root\./,
    );
  });
});
