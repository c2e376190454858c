import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestAccount } from '@esign/testing/accounts';
import { makeColleague } from '@esign/testing/billing';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCoreError } from '../src/trpc.ts';
import { type CoreHarness, codeOf, startCore, twoRoleTemplate } from './caller.ts';

// Issue 44 items 1 and 5 (docs/branding.md): brands per account, chosen per template and per
// request, isolated between accounts, audited; hostile brands refused or neutralised.

let h: CoreHarness;
let owner: TestAccount;

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ credits: 5 });
});
afterAll(() => h?.close());

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngLogo(): string {
  const canvas = createCanvas(120, 40);
  const g = canvas.getContext('2d');
  g.fillStyle = '#7c3aed';
  g.fillRect(0, 0, 120, 40);
  return canvas.toBuffer('image/png').toString('base64');
}

const messageOf = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (err: unknown) => toCoreError(err).message,
  );

describe('issue 44.1: several brands per account, one default', () => {
  it('the first brand is the default; making another the default clears it; lists omit the logo bytes', async () => {
    const account = await h.account();
    const caller = await h.as(account.key);
    const a = await caller.brands.create({ name: 'Agency A', logo: pngLogo() });
    expect(a).toMatchObject({
      object: 'brand',
      name: 'Agency A',
      is_default: true,
      primary_color: '#1d4ed8',
    });
    expect(a.logo).toMatchObject({ content_type: 'image/png' });
    expect(a.logo?.data_uri).toMatch(/^data:image\/png;base64,/);
    const b = await caller.brands.create({ name: 'Client B', primary_color: '#7C3AED', is_default: true });
    expect(b.primary_color).toBe('#7c3aed');
    expect((await caller.brands.get({ id: a.id })).is_default).toBe(false);
    const page = await caller.brands.list({ limit: 1 });
    expect(page).toMatchObject({ object: 'list', has_more: true, next_cursor: b.id });
    expect(page.data[0]!.id).toBe(b.id);
    const next = await caller.brands.list({ limit: 1, cursor: page.next_cursor! });
    expect(next.data[0]!.id).toBe(a.id);
    expect(next.data[0]!.logo?.data_uri).toBeUndefined();
    await caller.brands.update({ id: a.id, is_default: true });
    const all = await caller.brands.list({});
    expect(all.data.filter((x) => x.is_default).map((x) => x.id)).toEqual([a.id]);
    expect(await caller.brands.delete({ id: b.id })).toEqual({ object: 'brand', id: b.id, deleted: true });
    expect(await codeOf(caller.brands.get({ id: b.id }))).toBe('not_found');
  });

  it('brand_id on templates and signature requests; get_account (MCP) lists the brands to choose from', async () => {
    const caller = await h.as(owner.key);
    const brand = await caller.brands.create({ name: 'Send brand' });
    const tpl = await caller.templates.update({ id: (await twoRoleTemplate(caller)).id, brand_id: brand.id });
    expect(tpl.brand_id).toBe(brand.id);
    expect((await caller.templates.get({ id: tpl.id })).brand_id).toBe(brand.id);
    const request = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers: [{ email: 'a@example.com' }, { email: 'b@example.com' }],
      send_email: false,
      brand_id: brand.id,
    });
    expect(request.brand_id).toBe(brand.id);
    expect((await caller.signatureRequests.get({ id: request.id })).brand_id).toBe(brand.id);
    const cleared = await caller.templates.update({ id: tpl.id, brand_id: null });
    expect(cleared.brand_id).toBeUndefined();
    const account = await caller.account.get();
    expect(account.brands).toContainEqual({
      id: brand.id,
      name: 'Send brand',
      is_default: expect.any(Boolean),
    });
  });

  it('only admins change brands; members read them', async () => {
    const caller = await h.as(owner.key);
    const brand = await caller.brands.create({ name: 'Admins only' });
    const member = await h.as((await makeColleague(h.db, owner, 'member')).key);
    expect(await codeOf(member.brands.create({ name: 'Mine' }))).toBe('forbidden');
    expect(await codeOf(member.brands.update({ id: brand.id, name: 'Mine' }))).toBe('forbidden');
    expect(await codeOf(member.brands.delete({ id: brand.id }))).toBe('forbidden');
    expect((await member.brands.get({ id: brand.id })).name).toBe('Admins only');
  });

  it('changes are audited: who changed which fields (never the logo bytes)', async () => {
    const caller = await h.as(owner.key);
    const brand = await caller.brands.create({ name: 'Audited' });
    await caller.brands.update({ id: brand.id, accent_color: '#b91c1c', logo: pngLogo() });
    await caller.brands.delete({ id: brand.id });
    const rows = await h.db
      .selectFrom('audit_events')
      .select(['type', 'actor_type', 'actor_id', 'api_key_id', 'data'])
      .where('account_id', '=', owner.accountId)
      .where('type', 'like', 'brand.%')
      .orderBy('id')
      .execute();
    const mine = rows.filter((r) => (r.data as { brand_id?: number }).brand_id === brand.id);
    expect(mine.map((r) => r.type)).toEqual(['brand.created', 'brand.updated', 'brand.deleted']);
    expect(mine[1]).toMatchObject({
      actor_type: 'api_key',
      actor_id: String(owner.userId),
      data: { brand_id: brand.id, brand_name: 'Audited', changed: ['accent_color', 'logo'] },
    });
    expect(JSON.stringify(mine)).not.toContain('base64');
  });
});

describe('issue 44.5: one account never sees or uses another account’s brand (404)', () => {
  it('get, update, delete, a template and a request naming it are all 404; lists never show it', async () => {
    const mine = await h.as(owner.key);
    const other = await h.account({ credits: 5 });
    const theirs = await h.as(other.key);
    const brand = await mine.brands.create({ name: 'Private brand' });
    expect(await codeOf(theirs.brands.get({ id: brand.id }))).toBe('not_found');
    expect(await codeOf(theirs.brands.update({ id: brand.id, name: 'Stolen' }))).toBe('not_found');
    expect(await codeOf(theirs.brands.delete({ id: brand.id }))).toBe('not_found');
    expect((await theirs.brands.list({})).data.map((b) => b.id)).not.toContain(brand.id);
    expect((await theirs.account.get()).brands.map((b) => b.id)).not.toContain(brand.id);
    const tpl = await twoRoleTemplate(theirs);
    expect(await codeOf(theirs.templates.update({ id: tpl.id, brand_id: brand.id }))).toBe('not_found');
    const send = theirs.signatureRequests.create({
      template_id: tpl.id,
      signers: [{ email: 'a@example.com' }, { email: 'b@example.com' }],
      send_email: false,
      brand_id: brand.id,
    });
    expect(await codeOf(send)).toBe('not_found');
    expect((await mine.brands.get({ id: brand.id })).name).toBe('Private brand');
  });

  it('the test side of an account has its own brands', async () => {
    const mine = await h.as(owner.key);
    const brand = await mine.brands.create({ name: 'Live only' });
    const testKey = await owner.newKey({ environment: 'test' });
    const testSide = await h.as(testKey.key);
    expect(await codeOf(testSide.brands.get({ id: brand.id }))).toBe('not_found');
    expect((await testSide.brands.list({})).data).toEqual([]);
  });
});

describe('issue 44.5: hostile brands are refused or neutralised', () => {
  it('a script in the name is stored as text (escaped where shown), never refused as markup', async () => {
    const caller = await h.as(owner.key);
    const brand = await caller.brands.create({ name: '<script>alert(1)</script> Acme' });
    expect(brand.name).toBe('<script>alert(1)</script> Acme');
  });

  it('an SVG with onload, a script and external hrefs is rasterised to PNG and fetches nothing', async () => {
    let fetched = 0;
    const server = createServer((_req, res) => {
      fetched += 1;
      res.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const svg = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 300 100" onload="alert(1)">
  <script>fetch('${url}/script')</script>
  <style>@import url('${url}/style.css'); rect { fill: url(${url}/paint) }</style>
  <rect width="300" height="100" fill="#1d4ed8" onclick="alert(2)"/>
  <image href="${url}/a.png" width="50" height="50"/>
  <image xlink:href="${url}/b.png" x="60" width="50" height="50"/>
  <use href="${url}/c.svg#x"/>
</svg>`;
      const caller = await h.as(owner.key);
      const brand = await caller.brands.create({ name: 'SVG', logo: Buffer.from(svg).toString('base64') });
      expect(brand.logo?.content_type).toBe('image/png');
      const bytes = Buffer.from(brand.logo!.data_uri!.split(',')[1]!, 'base64');
      expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      for (const word of ['script', 'onload', 'href', '127.0.0.1']) expect(bytes.includes(word)).toBe(false);
      // Drawn at the SVG's own aspect ratio (3:1), at a fixed height.
      expect(bytes.readUInt32BE(16) / bytes.readUInt32BE(20)).toBeCloseTo(3, 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fetched).toBe(0);
    } finally {
      server.close();
    }
  });

  it('an SVG declaring entities is refused (422 invalid_document)', async () => {
    const svg =
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>';
    const caller = await h.as(owner.key);
    expect(
      await codeOf(caller.brands.create({ name: 'XXE', logo: Buffer.from(svg).toString('base64') })),
    ).toBe('invalid_document');
  });

  it('a 50 MB logo is refused with the size error (422 document_too_large) before it is decoded', async () => {
    const caller = await h.as(owner.key);
    const huge = Buffer.alloc(50 * 1024 * 1024, 1).toString('base64');
    const call = caller.brands.create({ name: 'Huge', logo: huge });
    expect(await messageOf(call)).toMatch(/logo .* is larger than 1 MB/);
    expect(await codeOf(caller.brands.create({ name: 'Huge', logo: huge }))).toBe('document_too_large');
  });

  it('a file that is not PNG, JPEG or SVG by content is refused (422 invalid_file_type), whatever its data: type says', async () => {
    const caller = await h.as(owner.key);
    const gif = `data:image/png;base64,${Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;').toString('base64')}`;
    expect(await codeOf(caller.brands.create({ name: 'GIF', logo: gif }))).toBe('invalid_file_type');
    const html = Buffer.from('<html><script>alert(1)</script></html>').toString('base64');
    expect(await codeOf(caller.brands.create({ name: 'HTML', logo: html }))).toBe('invalid_file_type');
  });

  it('white on white is refused (422 invalid_parameter) naming the pair; an update is checked against the stored colours', async () => {
    const caller = await h.as(owner.key);
    const white = caller.brands.create({ name: 'White', primary_color: '#ffffff', accent_color: '#ffffff' });
    expect(await codeOf(white)).toBe('invalid_parameter');
    expect(
      await messageOf(
        caller.brands.create({ name: 'White', primary_color: '#ffffff', accent_color: '#ffffff' }),
      ),
    ).toMatch(
      /^primary_color #ffffff against the white button text \(#ffffff\) has a contrast of 1\.0:1; WCAG AA needs at least 4\.5:1/,
    );
    const brand = await caller.brands.create({ name: 'Fine' });
    expect(await messageOf(caller.brands.update({ id: brand.id, accent_color: '#9ca3af' }))).toMatch(
      /^accent_color #9ca3af against the white card background/,
    );
    expect(await codeOf(caller.brands.create({ name: 'Bad', primary_color: 'red' }))).toBe(
      'invalid_parameter',
    );
  });
});
