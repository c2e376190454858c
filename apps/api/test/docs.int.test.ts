import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from '../../web/test/browser.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('/api/docs: a reference renderer served by this process', () => {
  it('the page loads its renderer from this origin only (no CDN), pointed at /api/v1/openapi.json', async () => {
    const page = await t.api('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('<script src="/api/docs/scalar.js"></script>');
    expect(page.text).toContain('"url":"/api/v1/openapi.json"');
    expect(page.text).toContain('"telemetry":false');
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.text.length).toBeLessThan(4000);
    // A policy fit for the page: its scripts by origin and hash, no framing (issue 29 item 5).
    const csp = page.headers.get('content-security-policy');
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).toContain("frame-ancestors 'none'");

    const script = await fetch(`${t.baseUrl}/api/docs/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    const body = await script.text();
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(body).toContain('createApiReference');

    const doc = await t.api('GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.info.description).toContain('## Errors');
  });
});

describe.runIf(browserTestsEnabled('api docs'))('/api/docs in a real browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('renders navigation, an operation, the error table, webhooks and MCP tools, requesting nothing from another origin', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await ctx.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    // The page's Content-Security-Policy (issue 29 item 5) refuses nothing the reference needs.
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    await page.goto(`${t.baseUrl}/api/docs`);
    // The guide (authentication, errors, webhooks, MCP) opens the page; operations are in the sidebar.
    await page.getByText('send_signature_request').first().waitFor({ timeout: 30_000 });
    const text = await page.locator('body').innerText();
    for (const expected of ['Authentication', 'Errors', 'insufficient_credits', 'X-Esign-Signature', 'MCP'])
      expect(text).toContain(expected);
    await page.getByText('Templates', { exact: true }).first().click();
    await page.getByText('Create a template from documents').first().click();
    await page.getByText('The same Idempotency-Key is still running').first().waitFor();
    await page.screenshot({ path: join(tmpdir(), 'esign-api-docs.png') });
    const foreign = requests.filter((u) => !u.startsWith(t.baseUrl) && !u.startsWith('data:'));
    expect(foreign).toEqual([]);
    expect(requests).toContain(`${t.baseUrl}/api/v1/openapi.json`);
    expect(refused).toEqual([]);
    await ctx.close();
  });
});
