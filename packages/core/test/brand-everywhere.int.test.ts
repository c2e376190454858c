import { PNG_DOT } from '@esign/testing/signing';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, tempDir, writeTemp } from '../../pdf/test/seal-helpers.ts';
import { jobHandlers } from '../src/jobs.ts';
import { resolveShortFileLink } from '../src/services/short-file-links.ts';
import { isGsm7 } from '../src/services/sms/segments.ts';
import { drainJobs } from '../src/services/worker.ts';
import { type CoreHarness, startCore, tokenOf, twoRoleTemplate } from './caller.ts';

// Issue 44 item 2, "every email": the emails about a request other than its invitations (the
// signing code, completion, CC, notices) go out under the request's brand, with its identity;
// the CC page's view and the audit trail's head show it too; brand C of the same account shows C.

let h: CoreHarness;
let caller: Awaited<ReturnType<CoreHarness['as']>>;
let tpl: Awaited<ReturnType<typeof twoRoleTemplate>>;
const brands = { B: 0, C: 0 };

function logo(): string {
  const canvas = createCanvas(60, 20);
  canvas.getContext('2d').fillRect(0, 0, 60, 20);
  return canvas.toBuffer('image/png').toString('base64');
}

beforeAll(async () => {
  h = await startCore({ ALLOW_BRAND_FROM_ADDRESS: 'true' });
  const owner = await h.account({ credits: 20 });
  caller = await h.as(owner.key);
  tpl = await twoRoleTemplate(caller, 'Lease');
  const b = await caller.brands.create({
    name: 'Brand <B> & Co',
    logo: logo(),
    primary_color: '#7c3aed',
    from_name: 'Brand B',
    from_address: 'hello@brand-b.example',
    reply_to: 'desk@brand-b.example',
    legal_footer: 'Brand B Ltd, London',
  });
  const c = await caller.brands.create({ name: 'Clinic C', primary_color: '#047857', is_default: false });
  brands.B = b.id;
  brands.C = c.id;
});
afterAll(() => h?.close());

const mailTo = (to: string) =>
  h.db
    .selectFrom('mail_outbox')
    .select([
      'kind',
      'subject',
      'text_body',
      'html_body',
      'from_name',
      'from_address',
      'reply_to',
      'brand_id',
    ])
    .where('to_address', '=', to)
    .orderBy('id')
    .execute();

async function send(brand: 'B' | 'C', tag: string, otp = false) {
  return caller.signatureRequests.create({
    template_id: tpl.id,
    brand_id: brands[brand],
    signing_order: 'parallel',
    require_email_otp: otp,
    signers: [
      { name: 'Cleo Client', email: `cleo-${tag}@example.com` },
      { name: 'Andy Agent', email: `andy-${tag}@example.com` },
    ],
    cc: [`cc-${tag}@example.com`],
    notify: [`notify-${tag}@example.com`],
  });
}

describe('issue 44.2: every email and page about a request under its brand', () => {
  it('the code, CC, completion and notice emails carry brand B (header, escaped name, colour, footer, From, Reply-To); the download names, the CC view, the audit trail and a verification of it show it', async () => {
    // The code email: a request whose signers enter an emailed code.
    const withCode = await send('B', 'otp', true);
    await h.anonymous().signing.requestCode({ token: tokenOf(withCode.signers[0]!.signing_url) });
    const code = (await mailTo('cleo-otp@example.com')).find((m) => m.kind === 'otp');
    expect(code).toBeDefined();
    const sent = await send('B', 'b');
    for (const s of sent.signers) {
      const values =
        s.role === 'Client'
          ? { 'Client signature': PNG_DOT, 'Client name': 'Cleo' }
          : { 'Agent signature': PNG_DOT };
      await h.anonymous().signing.complete({ token: tokenOf(s.signing_url), values });
    }
    await drainJobs(h.sc, jobHandlers);
    const mails = [
      code!,
      ...(await mailTo('cc-b@example.com')),
      ...(await mailTo('notify-b@example.com')),
      ...(await mailTo('cleo-b@example.com')).filter((m) => m.kind === 'request.completed'),
    ];
    expect(mails.map((m) => m.kind)).toEqual([
      'otp',
      'cc',
      'cc.completed',
      'request.notice',
      'request.completed',
    ]);
    for (const m of mails) {
      expect(m, m.kind).toMatchObject({
        brand_id: brands.B,
        from_name: 'Brand B',
        from_address: 'hello@brand-b.example',
        reply_to: 'desk@brand-b.example',
      });
      expect(m.text_body.startsWith('Brand <B> & Co\n'), m.kind).toBe(true);
      expect(m.text_body).toContain('Brand B Ltd, London');
      expect(m.html_body).toContain('data-brand="header"');
      expect(m.html_body).toContain('Brand &#60;B&#62; &#38; Co');
      expect(m.html_body).not.toContain('<B>');
      expect(m.html_body).toContain('src="cid:brand-logo"');
      expect(m.html_body).toContain('#7c3aed');
      expect(`${m.text_body}${m.html_body}`).not.toMatch(/powered by/i);
    }
    // The download names lead with the brand's name, less what file systems refuse ("<", ">").
    const completed = mails.find((m) => m.kind === 'request.completed')!;
    const names = [...completed.text_body.matchAll(/\/files\/[^/\s]+\/([^\s]+)\.pdf/g)].map((m) =>
      decodeURIComponent(m[1]!),
    );
    expect(names).toContain('Brand B & Co - Lease - audit trail');
    expect(names).toContain('Brand B & Co - Document 1');
    // The CC's page is told the brand.

    const cc = mails.find((m) => m.kind === 'cc')!;
    const token = /\/cc\/([A-Za-z0-9_-]{43})/.exec(cc.text_body)![1]!;
    const view = await h.anonymous().recipients.view({ token });
    expect(view.brand).toMatchObject({ name: 'Brand <B> & Co', primary_color: '#7c3aed' });
    expect(view.brand?.logo).toMatch(/^data:image\/png;base64,/);
    // The audit trail's head names the brand (as text; the logo is drawn above it).
    const row = await h.db
      .selectFrom('signature_requests')
      .select('audit_trail_storage_key')
      .where('id', '=', sent.id)
      .executeTakeFirstOrThrow();
    const trail = await h.sc.deps.storage.get(row.audit_trail_storage_key!);
    const text = pdfText(writeTemp(tempDir('brand-trail'), 'trail.pdf', trail));
    expect(text.split('\n').slice(0, 3).join('\n')).toContain('Brand <B> & Co');
    expect(text).not.toMatch(/powered by/i);
    // Verifying that audit trail (the verify page's procedure, with the caller's key here) names the brand.
    const verified = await caller.documents.verify({ file: Buffer.from(trail).toString('base64') });
    expect(verified.match?.kind).toBe('audit_trail');
    expect(verified.match?.brand).toMatchObject({ name: 'Brand <B> & Co', primary_color: '#7c3aed' });
  }, 240_000);

  it('a request with brand C of the same account shows C, and a request’s own reply_to wins', async () => {
    const sent = await caller.signatureRequests.create({
      template_id: tpl.id,
      brand_id: brands.C,
      reply_to: 'owner@example.com',
      signers: [{ name: 'Cleo', email: 'cleo-c@example.com' }, { email: 'andy-c@example.com' }],
      cc: ['cc-c@example.com'],
    });
    const [cc] = await mailTo('cc-c@example.com');
    expect(cc).toMatchObject({ brand_id: brands.C, from_name: 'Clinic C', reply_to: 'owner@example.com' });
    expect(cc!.text_body.startsWith('Clinic C\n')).toBe(true);
    expect(cc!.html_body).toContain('#047857');
    expect(cc!.html_body).not.toContain('Brand &#60;B');
    const token = /\/cc\/([A-Za-z0-9_-]{43})/.exec(cc!.text_body)![1]!;
    expect((await h.anonymous().recipients.view({ token })).brand?.name).toBe('Clinic C');
    expect(sent.brand_id).toBe(brands.C);
  });

  it("issue 44.2: an SMS names the brand within GSM-7 where its name allows (Zoë’s → Zoe's), so the text stays GSM-7", async () => {
    const zoe = await caller.brands.create({ name: 'Zoë’s Café', is_default: false });
    const sent = await caller.signatureRequests.create({
      template_id: tpl.id,
      brand_id: zoe.id,
      signers: [{ phone: '+49 151 23456789' }, { email: 'agent-sms@example.com' }],
    });
    const sms = await h.db
      .selectFrom('sms_outbox')
      .select('text_body')
      .where('signature_request_id', '=', sent.id)
      .executeTakeFirstOrThrow();
    expect(sms.text_body).toContain("Zoe's Café");
    expect(isGsm7(sms.text_body)).toBe(true);
  });

  it("issue 44.2: the dashboard's downloads and the completion SMS's short links name the files with the brand first; the REST object keeps the spec's plain names", async () => {
    const sent = await caller.signatureRequests.create({
      template_id: tpl.id,
      brand_id: brands.B,
      signing_order: 'parallel',
      signers: [{ name: 'Cleo', phone: '+49 151 23456780' }, { email: 'andy-dl@example.com' }],
    });
    for (const s of sent.signers) {
      const values =
        s.role === 'Client'
          ? { 'Client signature': PNG_DOT, 'Client name': 'Cleo' }
          : { 'Agent signature': PNG_DOT };
      await h.anonymous().signing.complete({ token: tokenOf(s.signing_url), values });
    }
    await drainJobs(h.sc, jobHandlers);
    const nameOf = (url: string) => decodeURIComponent(/\/files\/[^/]+\/([^/?#]+)$/.exec(url)![1]!);
    // The dashboard (dashboard.requestDocuments, what the request page's Downloads link to).
    const { downloads } = await caller.dashboard.requestDocuments({ id: sent.id });
    expect(downloads?.documents.map((d) => [d.name, nameOf(d.url)])).toEqual([
      ['Document 1', 'Brand B & Co - Document 1.pdf'],
    ]);
    expect(nameOf(downloads!.audit_trail_url!)).toBe('Brand B & Co - Lease - audit trail.pdf');
    if (downloads!.combined_document_url)
      expect(nameOf(downloads!.combined_document_url)).toBe('Brand B & Co - Lease - signed.pdf');
    // The Signature request object (REST, MCP) keeps the plain names its readers know.
    const got = await caller.signatureRequests.get({ id: sent.id });
    expect(nameOf(got.audit_trail_url!)).toBe(`audit-trail-${sent.id}.pdf`);
    expect(nameOf(got.documents![0]!.url)).toBe('Document 1.pdf');
    // The completion SMS: each short link leads to the file under its branded name.
    const sms = await h.db
      .selectFrom('sms_outbox')
      .select('text_body')
      .where('signature_request_id', '=', sent.id)
      .where('kind', '=', 'request.completed')
      .executeTakeFirstOrThrow();
    const tokens = [...sms.text_body.matchAll(/\/d\/([\w-]{35})/g)].map((m) => m[1]!);
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) {
      const name = nameOf(await resolveShortFileLink(h.sc, token));
      expect(['Brand B & Co - Lease - signed.pdf', 'Brand B & Co - Document 1.pdf']).toContain(name);
    }
  }, 240_000);
});
