import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { makeTemplate } from '@esign/testing/fixtures';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, drawSignature, launchChromium } from './browser.ts';

// @esign/embed in Chromium (issue 48.3, docs/embed.md): packages/embed's two example pages, served
// as they are from a second local HTTP server acting as the integrator's site, sign a request
// inside the element on an allowed origin, with their events in order (loaded, field-completed,
// signed) and the frame sized to the signing page; declined; refused on another origin
// (frame-ancestors) with an error event; the page's own error (a canceled request); a bad signing
// URL is an error event at once.

const SHOTS = '/tmp/embed-shots';
/** expect.poll waits 1 s by default: a page and its frame load slower on a busy machine. */
const SOON = { timeout: 20_000 };
const EXAMPLES = new URL('../../../packages/embed/examples/', import.meta.url);
const area = (page: number, y: number) => [{ page, x: 0.1, y, w: 0.35, h: 0.06 }];

interface Logged {
  type: string;
  detail: Record<string, unknown>;
}

/** The integrator's site: the element example, and the React example built with esbuild. */
async function integratorSite(serviceUrl: string): Promise<Server> {
  const element = readFileSync(new URL('element.html', EXAMPLES), 'utf8').replaceAll(
    'http://localhost:3000',
    serviceUrl,
  );
  const react = readFileSync(new URL('react/index.html', EXAMPLES), 'utf8');
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('react/app.tsx', EXAMPLES))],
    bundle: true,
    format: 'esm',
    jsx: 'automatic',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const files: Record<string, [string, string | Uint8Array]> = {
    '/element.html': ['text/html', element],
    '/react/index.html': ['text/html', react],
    '/react/app.js': ['text/javascript', bundle.outputFiles[0]!.contents],
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

const logged = (page: Page) => page.evaluate(() => (window as unknown as { events: Logged[] }).events);
const types = async (page: Page) => (await logged(page)).map((e) => e.type);

/** The signing page's frame, once the element created it. */
async function signingFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().includes('/e/')), SOON).toBe(true);
  return page.frames().find((f) => f.url().includes('/e/'))!;
}

/** Draws the signature, finishes and signs in the review dialog, all inside the frame. */
async function signIn(page: Page, frame: Frame) {
  await frame
    .locator('main')
    .getByRole('button', { name: /^Signature \(/ })
    .click();
  const dialog = frame.getByRole('dialog');
  await dialog.locator('canvas').waitFor();
  await drawSignature(page, dialog.locator('canvas'));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => dialog.count(), SOON).toBe(0);
  await frame.getByRole('button', { name: 'Finish' }).click();
  await frame.getByRole('dialog', { name: 'Review and sign' }).getByRole('button', { name: 'Sign' }).click();
}

/** The frame's height on the page, and the height of the signing page's content inside it. */
async function heights(page: Page, frame: Frame) {
  const outer = await page.locator('esign-form iframe').evaluate((f) => f.getBoundingClientRect().height);
  const inner = await frame.evaluate(() => document.getElementById('app')!.getBoundingClientRect().height);
  return { outer, inner };
}

describe.runIf(browserTestsEnabled('embed element'))('@esign/embed in Chromium (issue 48.3)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let browser: Browser;
  let site: Server;
  let port: number;
  let templateId: number;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    owner = await createTestAccount(t.db, { credits: 10 });
    templateId = (
      await makeTemplate(t, owner, {
        name: 'Partner agreement',
        fields: [{ name: 'Signature', type: 'signature', role: 'Partner', areas: area(1, 0.7) }],
      })
    ).id;
    site = await integratorSite(t.baseUrl);
    port = (site.address() as AddressInfo).port;
    const res = await fetch(`${t.baseUrl}/trpc/embed.update`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ origins: [`http://localhost:${port}`] }),
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    site?.close();
    await browser?.close();
    await t?.close();
  });

  async function embedRequest(name: string): Promise<{ id: number; url: string }> {
    const res = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: {
        template_id: templateId,
        embed: true,
        send_email: false,
        signers: [{ name, email: `${name.toLowerCase().replace(' ', '.')}@example.com` }],
      },
    });
    expect(res.status).toBe(201);
    return { id: res.body.id, url: res.body.signers[0].signing_url };
  }

  const open = async (path: string, signingUrl: string, host = 'localhost') => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`http://${host}:${port}${path}?signing_url=${encodeURIComponent(signingUrl)}`);
    return page;
  };

  it('element: signs inside a page on an allowed origin; events arrive in order (loaded, field-completed, signed); the frame follows the page height', async () => {
    const request = await embedRequest('Ada Element');
    const page = await open('/element.html', request.url);
    const frame = await signingFrame(page);
    await frame.getByRole('heading', { level: 1, name: 'Partner agreement' }).waitFor();
    await expect.poll(() => types(page), SOON).toEqual(['loaded']);
    expect((await logged(page))[0]!.detail).toMatchObject({ source: 'esign-form', status: 'ready' });
    // The document is taller than the window: the frame takes the window's height (max-height 100vh).
    await expect.poll(async () => (await heights(page, frame)).outer, SOON).toBe(900);
    await page.screenshot({ path: `${SHOTS}/element-loaded.png` });

    await signIn(page, frame);
    await expect.poll(() => types(page), SOON).toEqual(['loaded', 'field-completed', 'signed']);
    const [, completed, signed] = await logged(page);
    expect(completed!.detail).toMatchObject({
      field: { name: 'Signature', type: 'signature', required: true },
      completed: 1,
      total: 1,
    });
    expect(signed!.detail).toEqual({
      source: 'esign-form',
      type: 'signed',
      signature_request_id: request.id,
    });
    // The "signed" page is short: the frame shrinks to it (the page reports its height).
    await frame.getByRole('heading', { name: /signed/i }).waitFor();
    await expect
      .poll(async () => {
        const h = await heights(page, frame);
        return h.outer < 600 && Math.abs(h.outer - Math.max(200, Math.ceil(h.inner))) <= 1;
      }, SOON)
      .toBe(true);
    await page.screenshot({ path: `${SHOTS}/element-signed.png` });
    // A fixed `height` wins; removed, the frame goes back to the height the page reported.
    const reported = (await heights(page, frame)).outer;
    await page.locator('esign-form').evaluate((el) => el.setAttribute('height', '520px'));
    expect((await heights(page, frame)).outer).toBe(520);
    await page.locator('esign-form').evaluate((el) => el.removeAttribute('height'));
    expect((await heights(page, frame)).outer).toBe(reported);
    const after = await t.api('GET', `signature_requests/${request.id}`, { key: owner.key });
    expect(after.body).toMatchObject({ status: 'completed', source: 'embed' });
    await page.close();
  }, 120_000);

  it('element: forged messages are ignored: from the host page itself (another origin) and malformed ones from the frame', async () => {
    const request = await embedRequest('Fay Forged');
    const page = await open('/element.html', request.url);
    const frame = await signingFrame(page);
    await expect.poll(() => types(page), SOON).toEqual(['loaded']);
    // Any script of the host page (or another frame) posting a "signed" of the right shape.
    await page.evaluate((id) => {
      window.postMessage({ source: 'esign-form', type: 'signed', signature_request_id: id }, '*');
      window.postMessage({ source: 'esign-form', type: 'declined', signature_request_id: id }, '*');
    }, request.id);
    // From the signing page's own window, but not a message of the protocol's shapes.
    await frame.evaluate(() => {
      window.parent.postMessage({ source: 'esign-form', type: 'signed', signature_request_id: '1' }, '*');
      window.parent.postMessage({ source: 'esign-form', type: 'completed', signature_request_id: 1 }, '*');
      window.parent.postMessage({ type: 'signed', signature_request_id: 1 }, '*');
    });
    // A well-formed message from the frame does arrive, after all of the above: they were dropped.
    await frame.evaluate(() =>
      window.parent.postMessage(
        { source: 'esign-form', type: 'error', code: 'probe', message: 'probe' },
        '*',
      ),
    );
    await expect.poll(() => types(page), SOON).toEqual(['loaded', 'error']);
    const after = await t.api('GET', `signature_requests/${request.id}`, { key: owner.key });
    expect(after.body.status).toBe('sent');
    await page.close();
  });

  it('element: on a phone the frame fills the width, takes the window height for the document, and nothing overflows sideways', async () => {
    const request = await embedRequest('Pia Phone');
    const page = await browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(`http://localhost:${port}/element.html?signing_url=${encodeURIComponent(request.url)}`);
    const frame = await signingFrame(page);
    await frame.getByRole('heading', { level: 1, name: 'Partner agreement' }).waitFor();
    await expect.poll(async () => (await heights(page, frame)).outer, SOON).toBe(844);
    const widths = await frame.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    // With the element scrolled into view, the phone layout's action bar (fixed at the frame's
    // bottom) is on the screen: the frame is no taller than the window.
    await page.locator('esign-form').evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: `${SHOTS}/element-phone.png` });
    const finish = (await frame.getByRole('button', { name: 'Finish' }).boundingBox())!;
    expect(finish.y).toBeGreaterThanOrEqual(0);
    expect(finish.y + finish.height).toBeLessThanOrEqual(844);
    await page.close();
  }, 60_000);

  it('element: declined arrives as esign:declined with the request id', async () => {
    const request = await embedRequest('Dan Decline');
    const page = await open('/element.html', request.url);
    const frame = await signingFrame(page);
    await frame.getByRole('button', { name: 'Decline' }).click();
    const dialog = frame.getByRole('dialog', { name: 'Decline to sign' });
    await dialog.getByLabel('Reason for declining (required)').fill('Wrong company name.');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => types(page), SOON).toEqual(['loaded', 'declined']);
    expect((await logged(page))[1]!.detail).toMatchObject({ signature_request_id: request.id });
    await page.screenshot({ path: `${SHOTS}/element-declined.png` });
    const after = await t.api('GET', `signature_requests/${request.id}`, { key: owner.key });
    expect(after.body.status).toBe('declined');
    await page.close();
  }, 120_000);

  it('element: refused on an origin not on the list (frame-ancestors): an error event frame_refused, never loaded', async () => {
    const request = await embedRequest('Oscar Origin');
    const csp = (await fetch(request.url.replace('/s/', '/e/'))).headers.get('content-security-policy');
    expect(csp).toContain(`frame-ancestors http://localhost:${port}`);
    // The same page served as 127.0.0.1: another origin than the allowed localhost one.
    const page = await open('/element.html', request.url, '127.0.0.1');
    await expect.poll(() => types(page), { timeout: 30_000 }).toEqual(['error']);
    expect((await logged(page))[0]!.detail).toMatchObject({ type: 'error', code: 'frame_refused' });
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await frame.getByText('Partner agreement').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/element-refused.png` });
    await page.close();
  }, 60_000);

  it('element: a link the page cannot open (canceled request) is the page own error event (not_open), never frame_refused', async () => {
    const request = await embedRequest('Cora Cancel');
    const cancel = await t.api('POST', `signature_requests/${request.id}/cancel`, { key: owner.key });
    expect(cancel.status).toBe(200);
    const page = await open('/element.html', request.url);
    await expect.poll(() => types(page), SOON).toEqual(['error']);
    expect((await logged(page))[0]!.detail).toMatchObject({ source: 'esign-form', code: 'not_open' });
    // The page was shown (it says why it cannot be signed): the element's load timeout adds nothing.
    const frame = await signingFrame(page);
    await frame.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(5_500);
    expect(await types(page)).toEqual(['error']);
    await page.close();
  }, 60_000);

  it('element: a signing-url that is not a signing link of the service is an invalid_signing_url error, no frame', async () => {
    const page = await open('/element.html', `https://evil.example/s/${'a'.repeat(43)}`);
    await expect.poll(() => types(page), SOON).toEqual(['error']);
    expect((await logged(page))[0]!.detail).toMatchObject({ code: 'invalid_signing_url' });
    expect(await page.locator('esign-form iframe').count()).toBe(0);
    await page.close();
  });

  it('React wrapper: <EsignForm> signs on an allowed origin; its callbacks receive loaded, field-completed, signed in order', async () => {
    const request = await embedRequest('Rea React');
    const page = await open('/react/index.html', request.url);
    const frame = await signingFrame(page);
    await frame.getByRole('heading', { level: 1, name: 'Partner agreement' }).waitFor();
    await expect.poll(() => types(page), SOON).toEqual(['loaded']);
    await page.screenshot({ path: `${SHOTS}/react-loaded.png` });
    await signIn(page, frame);
    await expect.poll(() => types(page), SOON).toEqual(['loaded', 'field-completed', 'signed']);
    // The typed onSigned callback updated the app's own state.
    await page
      .getByRole('status')
      .filter({ hasText: `request ${request.id} is signed` })
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/react-signed.png` });
    await page.close();
  }, 120_000);
});
