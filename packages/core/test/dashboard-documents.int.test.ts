import type { TestAccount } from '@esign/testing/accounts';
import { PNG_DOT } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../src/jobs.ts';
import { readLinkedFile } from '../src/services/file-links.ts';
import { drainJobs } from '../src/services/worker.ts';
import { type CoreHarness, codeOf, startCore, tokenOf, twoRoleTemplate } from './caller.ts';

// Issue 33 item 7: what the dashboard shows of documents (dashboard.templates' thumbnails and
// counts, dashboard.requestDocuments' pages and values), scoped to the account side.

let h: CoreHarness;
let owner: TestAccount;
let stranger: TestAccount;
let caller: Awaited<ReturnType<CoreHarness['as']>>;
let strangerCaller: Awaited<ReturnType<CoreHarness['as']>>;

beforeAll(async () => {
  h = await startCore();
  [owner, stranger] = await Promise.all([h.account({ credits: 20 }), h.account({ credits: 20 })]);
  caller = await h.as(owner.key);
  strangerCaller = await h.as(stranger.key);
});
afterAll(() => h?.close());

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

/** The bytes a signed file link serves, read through the same function the /files route calls. */
async function fetchLink(url: string): Promise<Uint8Array> {
  const path = new URL(url).pathname.split('/');
  const file = await readLinkedFile(
    { db: h.db, deps: h.deps, config: h.config, now: () => new Date() },
    { token: decodeURIComponent(path[2]!), fileName: decodeURIComponent(path[3]!) },
  );
  if (!('bytes' in file)) throw new Error('expected a page image');
  return file.bytes;
}

describe('dashboard.templates (issue 33.7: thumbnails with page and field counts)', () => {
  it('issue 33.7: each list item has its page, field and document counts and a first-page thumbnail that renders', async () => {
    const tpl = await twoRoleTemplate(caller, 'Counted agreement');
    const list = await caller.dashboard.templates({ limit: 20 });
    const item = list.data.find((t) => t.id === tpl.id)!;
    expect(item).toMatchObject({
      object: 'template',
      name: 'Counted agreement',
      page_count: 2,
      field_count: 4,
      document_count: 1,
    });
    expect(item.thumbnail_url).toMatch(/\/files\/[^/]+\/[^/]+\.png$/);
    expect([...(await fetchLink(item.thumbnail_url!)).subarray(0, 4)]).toEqual(PNG_MAGIC);
    // Same envelope and filters as GET /templates.
    const api = await caller.templates.list({ limit: 20 });
    expect(list.data.map((t) => t.id)).toEqual(api.data.map((t) => t.id));
    expect(list.has_more).toBe(api.has_more);
  });

  it('issue 33.7: another account sees none of these templates in its list', async () => {
    const tpl = await twoRoleTemplate(caller, 'Private agreement');
    const theirs = await strangerCaller.dashboard.templates({ limit: 100 });
    expect(theirs.data.map((t) => t.id)).not.toContain(tpl.id);
  });
});

describe('dashboard.requestDocuments (issue 33.7: the documents with the values drawn)', () => {
  it('issue 33.7: before completion the pages are the documents as sent and each field carries its value so far; after sealing the pages are the sealed files', async () => {
    const tpl = await twoRoleTemplate(caller, 'Values agreement');
    const request = await caller.signatureRequests.create({
      template_id: tpl.id,
      send_email: false,
      signing_order: 'parallel',
      signers: [
        { name: 'Cleo Client', email: 'cleo@example.com', prefill: { 'Client name': 'Cleo Prefilled' } },
        { name: 'Andy Agent', email: 'andy@example.com' },
      ],
    });
    const before = await caller.dashboard.requestDocuments({ id: request.id });
    expect(before.documents).toHaveLength(1);
    expect(before.documents[0]).toMatchObject({ index: 0, sealed: false, page_count: 2 });
    const byName = (r: typeof before) => new Map(r.fields.map((f) => [f.name, f]));
    const clientId = request.signers.find((s) => s.role === 'Client')!.id;
    expect(byName(before).get('Client name')).toMatchObject({
      role: 'Client',
      type: 'text',
      signer_id: clientId,
      value: 'Cleo Prefilled',
      areas: [{ page: 1, document: 0 }],
    });
    expect(byName(before).get('Agent signature')!.value).toBeNull();

    // The client signs: their signature shows; the agent's is still empty.
    const anon = h.anonymous();
    const client = request.signers.find((s) => s.role === 'Client')!;
    const agent = request.signers.find((s) => s.role === 'Agent')!;
    await anon.signing.complete({
      token: tokenOf(client.signing_url),
      values: { 'Client signature': PNG_DOT },
    });
    const during = await caller.dashboard.requestDocuments({ id: request.id });
    expect(byName(during).get('Client signature')!.value).toMatch(/^data:image\/png;base64,/);
    expect(during.documents[0]!.sealed).toBe(false);
    const page1 = during.documents[0]!.page_image_url.replace('{page}', '1');
    expect([...(await fetchLink(page1)).subarray(0, 4)]).toEqual(PNG_MAGIC);

    await anon.signing.complete({
      token: tokenOf(agent.signing_url),
      values: { 'Agent signature': PNG_DOT },
    });
    await drainJobs(h.sc, jobHandlers);
    const after = await caller.dashboard.requestDocuments({ id: request.id });
    expect(after.documents[0]).toMatchObject({ sealed: true, page_count: 2 });
    expect(after.documents[0]!.page_image_url).not.toBe(during.documents[0]!.page_image_url);
    expect(byName(after).get('Agent signature')!.value).toMatch(/^data:image\/png;base64,/);
    const sealedPage2 = after.documents[0]!.page_image_url.replace('{page}', '2');
    expect([...(await fetchLink(sealedPage2)).subarray(0, 4)]).toEqual(PNG_MAGIC);
  });

  it("issue 33.7: another account cannot fetch a request's documents (404 not_found)", async () => {
    const tpl = await twoRoleTemplate(caller, 'Scoped agreement');
    const request = await caller.signatureRequests.create({
      template_id: tpl.id,
      send_email: false,
      signers: [
        { name: 'Cleo Client', email: 'cleo@example.com' },
        { name: 'Andy Agent', email: 'andy@example.com' },
      ],
    });
    expect(await codeOf(strangerCaller.dashboard.requestDocuments({ id: request.id }))).toBe('not_found');
    expect(await codeOf(caller.dashboard.requestDocuments({ id: request.id }))).toBeNull();
  });
});
