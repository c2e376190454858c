import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listMail } from '@esign/core/operator';
import { makeTemplate } from '@esign/testing/fixtures';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, drawSignature, launchChromium } from './browser.ts';

// The `link` and `embed` sources in a real browser (docs/sending.md): a visitor of a public link
// signs and the owner sees the request; an embedded form completes inside a page of another
// origin and is refused on an origin not on the account's list.

const SHOTS = '/work/notes/shots/17';
const area = (page: number, y: number) => [{ page, x: 0.1, y, w: 0.35, h: 0.06 }];

/** Draws the signature and finishes, in the page or in a frame of it. */
async function signIn(page: Page, where: Page | Frame) {
  await where
    .locator('main')
    .getByRole('button', { name: /^Signature \(/ })
    .click();
  const dialog = where.getByRole('dialog');
  await dialog.locator('canvas').waitFor();
  await drawSignature(page, dialog.locator('canvas'));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  await where.getByRole('button', { name: 'Finish' }).click();
  // The review step (issue 14): what was entered, the consent sentence, then Sign.
  await where.getByRole('dialog', { name: 'Review and sign' }).getByRole('button', { name: 'Sign' }).click();
}

function hostServer(html: string): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}
const portOf = (s: Server) => (s.address() as AddressInfo).port;

describe.runIf(browserTestsEnabled('send sources'))('more ways to send, in Chromium', () => {
  let t: TestApp;
  let owner: TestAccount;
  let browser: Browser;
  let templateId: number;
  const servers: Server[] = [];

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    owner = await createTestAccount(t.db, { credits: 5 });
    templateId = (
      await makeTemplate(t, owner, {
        name: 'Volunteer waiver',
        fields: [{ name: 'Signature', type: 'signature', role: 'Volunteer', areas: area(1, 0.7) }],
      })
    ).id;
  });
  afterAll(async () => {
    for (const s of servers) s.close();
    await browser?.close();
    await t?.close();
  });

  it('link: a visitor enters name and email, confirms the emailed code, signs; the owner sees the request (source link)', async () => {
    const on = await t.api('PATCH', `templates/${templateId}/signing_link`, {
      key: owner.key,
      body: { enabled: true, max_uses: 10 },
    });
    expect(on.status).toBe(200);
    const page = await browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(on.body.url);
    await page.getByRole('heading', { name: 'Volunteer waiver' }).waitFor();
    await page.getByLabel('Full name').fill('Vera Visitor');
    await page.getByLabel('Email address').fill('not an email');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/valid email/);
    await page.screenshot({ path: `${SHOTS}/link-details-error-phone.png` });
    await page.getByLabel('Email address').fill('vera@example.com');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByLabel('Code from the email').waitFor();
    await page.screenshot({ path: `${SHOTS}/link-code-phone.png` });
    const mail = await listMail(t.db, { to: 'vera@example.com', limit: 1 });
    const code = /(\d{6})/.exec(mail.data[0]!.subject)![1]!;
    await page.getByLabel('Code from the email').fill(code);
    await page.getByRole('button', { name: 'Confirm and open the document' }).click();
    await page.waitForURL(/\/s\//);
    await page.getByRole('heading', { level: 1, name: 'Volunteer waiver' }).waitFor();
    await signIn(page, page);
    await page.getByRole('heading', { name: /signed/i }).waitFor();
    await page.screenshot({ path: `${SHOTS}/link-signed-phone.png` });

    const list = await t.api('GET', `signature_requests?template_id=${templateId}`, { key: owner.key });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ source: 'link', created_by: { email: owner.email } });
    expect(list.body.data[0].signers[0]).toMatchObject({
      name: 'Vera Visitor',
      email: 'vera@example.com',
      status: 'signed',
    });

    // Turned off, the link says so.
    await t.api('PATCH', `templates/${templateId}/signing_link`, {
      key: owner.key,
      body: { enabled: false },
    });
    const off = await page.goto(on.body.url);
    expect(off!.status()).toBe(410);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/turned off/);
    await page.screenshot({ path: `${SHOTS}/link-off-phone.png` });
    await page.close();
  }, 120_000);

  async function embedHost(signingUrl: string) {
    const server = await hostServer(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Partner portal</title>
<script src="${t.baseUrl}/embed/esign-form.js"></script></head>
<body><h1>Partner portal</h1><p>Sign the waiver below.</p>
<esign-form signing-url="${signingUrl}" height="640px"></esign-form>
<script>window.events=[];for(const n of ['loaded','completed','declined','error'])document.addEventListener('esign:'+n,e=>window.events.push({type:n,detail:e.detail}));</script>
</body></html>`);
    servers.push(server);
    return portOf(server);
  }

  async function embedRequest() {
    const res = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: {
        template_id: templateId,
        embed: true,
        send_email: false,
        signers: [{ name: 'Emma Embed', email: 'emma@example.com' }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.source).toBe('embed');
    return res.body;
  }

  async function allowOrigins(origins: string[]) {
    const res = await fetch(`${t.baseUrl}/trpc/embed.update`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ origins }),
    });
    expect(res.status).toBe(200);
  }

  const events = (page: Page) =>
    page.evaluate(() => (window as unknown as { events: { type: string; detail: any }[] }).events);

  it('embed: <esign-form> completes inside a page served from another loopback origin, with loaded and completed events', async () => {
    const request = await embedRequest();
    const port = await embedHost(request.signers[0].signing_url);
    await allowOrigins([`http://localhost:${port}`]);
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`http://localhost:${port}/`);
    await expect
      .poll(async () => (await events(page)).map((e) => e.type), { timeout: 20_000 })
      .toContain('loaded');
    const frame = page.frames().find((f) => f.url().includes('/e/'))!;
    await frame.getByRole('heading', { level: 1, name: 'Volunteer waiver' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/embed-loaded.png` });
    await signIn(page, frame);
    await expect
      .poll(async () => (await events(page)).map((e) => e.type), { timeout: 20_000 })
      .toContain('completed');
    const completed = (await events(page)).find((e) => e.type === 'completed')!;
    expect(completed.detail).toMatchObject({ source: 'esign-form', signature_request_id: request.id });
    await page.screenshot({ path: `${SHOTS}/embed-completed.png` });
    const after = await t.api('GET', `signature_requests/${request.id}`, { key: owner.key });
    expect(after.body).toMatchObject({ status: 'completed', source: 'embed' });
    await page.close();
  }, 120_000);

  it('embed: a request with require_email_otp completes in a frame on another site (the code cookie is not sent there; the page keeps the session)', async () => {
    const res = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: {
        template_id: templateId,
        embed: true,
        send_email: false,
        require_email_otp: true,
        signers: [{ name: 'Otto Embed', email: 'otto-embed@example.com' }],
      },
    });
    expect(res.status).toBe(201);
    const port = await embedHost(res.body.signers[0].signing_url);
    await allowOrigins([`http://localhost:${port}`]);
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`http://localhost:${port}/`);
    await expect
      .poll(() => page.frames().some((f) => f.url().includes('/e/')), { timeout: 20_000 })
      .toBe(true);
    const frame = page.frames().find((f) => f.url().includes('/e/'))!;
    await frame.getByRole('button', { name: 'Email me a code' }).click();
    await frame.getByLabel('Code from the email').waitFor();
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', 'otto-embed@example.com')
      .where('kind', '=', 'otp')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await frame.getByLabel('Code from the email').fill(/\b(\d{6})\b/.exec(mail.text_body)![1]!);
    await frame.getByRole('button', { name: 'Verify' }).click();
    await frame.getByRole('heading', { level: 1, name: 'Volunteer waiver' }).waitFor();
    await signIn(page, frame);
    await expect
      .poll(async () => (await events(page)).map((e) => e.type), { timeout: 20_000 })
      .toContain('completed');
    const after = await t.api('GET', `signature_requests/${res.body.id}`, { key: owner.key });
    expect(after.body).toMatchObject({ status: 'completed', source: 'embed' });
    await page.close();
  }, 120_000);

  it('embed: refused from an origin not on the list (frame-ancestors): no signing page, an esign:error event', async () => {
    const request = await embedRequest();
    const port = await embedHost(request.signers[0].signing_url);
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    // Served on 127.0.0.1:<port>: not the allowed localhost origin of the previous test.
    await page.goto(`http://127.0.0.1:${port}/`);
    await expect
      .poll(async () => (await events(page)).map((e) => e.type), { timeout: 15_000 })
      .toContain('error');
    expect((await events(page)).map((e) => e.type)).not.toContain('loaded');
    await page.screenshot({ path: `${SHOTS}/embed-refused.png` });
    // Chromium shows its own error page in the frame, never the document to sign.
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(frame.url()).not.toContain('/e/');
    expect(await frame.getByText('Volunteer waiver').count()).toBe(0);
    // The page itself says who may frame it; a request not sent for embedding may be framed by nobody.
    const csp = (await fetch(`${t.baseUrl}/e/${request.signers[0].signing_url.split('/s/')[1]}`)).headers.get(
      'content-security-policy',
    );
    expect(csp).toContain(`frame-ancestors http://localhost:`);
    const plain = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: { template_id: templateId, send_email: false, signers: [{ email: 'p@example.com' }] },
    });
    const plainCsp = (
      await fetch(`${t.baseUrl}/e/${plain.body.signers[0].signing_url.split('/s/')[1]}`)
    ).headers.get('content-security-policy');
    expect(plainCsp).toContain("frame-ancestors 'none'");
    await page.close();
  }, 120_000);
});
