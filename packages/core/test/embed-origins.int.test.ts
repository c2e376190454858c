import type { TestAccount } from '@esign/testing/accounts';
import { makeColleague } from '@esign/testing/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedFrameOrigins, MAX_EMBED_ORIGINS, normaliseOrigin } from '../src/services/embed/origins.ts';
import { type CoreHarness, codeOf, startCore, tokenOf, twoRoleTemplate } from './caller.ts';

// Source `embed` (docs/sending.md): the origins an account allows, and which signing pages they
// may frame.

let h: CoreHarness;
let owner: TestAccount;

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ credits: 5 });
});
afterAll(() => h?.close());

describe('allowed origins: scheme, host and port only', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['https://app.example.com/', 'https://app.example.com'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['HTTPS://App.Example.com', 'https://app.example.com'],
  ])('%s is kept as %s', (input, origin) => expect(normaliseOrigin(input)).toBe(origin));

  it.each([
    'app.example.com',
    'ftp://x.example',
    'https://a.example/path',
    'https://a.example?q=1',
    'https://u:p@a.example',
    '*',
  ])('%s is refused (422 invalid_parameter)', (input) =>
    expect(() => normaliseOrigin(input)).toThrow(/origin/),
  );
});

describe('embed settings', () => {
  it(`an admin saves at most ${MAX_EMBED_ORIGINS} origins; members cannot change them; other accounts do not see them`, async () => {
    const caller = await h.as(owner.key);
    const many = Array.from({ length: MAX_EMBED_ORIGINS + 1 }, (_, i) => `https://a${i}.example.com`);
    expect(await codeOf(caller.embed.update({ origins: many }))).toBe('invalid_parameter');
    const saved = await caller.embed.update({ origins: many.slice(0, MAX_EMBED_ORIGINS) });
    expect(saved.origins).toHaveLength(MAX_EMBED_ORIGINS);
    expect(saved.script_url).toMatch(/\/embed\/esign-form\.js$/);
    const member = await makeColleague(h.db, owner, 'member');
    expect(await codeOf((await h.as(member.key)).embed.update({ origins: [] }))).toBe('forbidden');
    const other = await h.account();
    expect((await (await h.as(other.key)).embed.get()).origins).toEqual([]);
  });

  it("only a request sent with embed: true may be framed, by its own account's origins", async () => {
    const caller = await h.as(owner.key);
    await caller.embed.update({ origins: ['https://portal.example.com'] });
    const tpl = await twoRoleTemplate(caller);
    const signers = [{ email: 'a@example.com' }, { email: 'b@example.com' }];
    const embedded = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      embed: true,
      send_email: false,
    });
    const plain = await caller.signatureRequests.create({ template_id: tpl.id, signers, send_email: false });
    expect(embedded.source).toBe('embed');
    expect(await embedFrameOrigins(h.db, tokenOf(embedded.signers[0]!.signing_url))).toEqual([
      'https://portal.example.com',
    ]);
    expect(await embedFrameOrigins(h.db, tokenOf(plain.signers[0]!.signing_url))).toEqual([]);
    expect(await embedFrameOrigins(h.db, 'x'.repeat(43))).toEqual([]);
  });
});
