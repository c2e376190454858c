import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { browserTestsEnabled } from './browser.ts';
import { type DashboardFixture, openDashboard } from './editor-helpers.ts';

// Issue 44 item 1 in the dashboard: the Brands page (add with a logo, the colour pickers' WCAG AA
// message, make default, delete), the email words with the server's preview in any language, and
// the brand choice on the Send page and on a template, the same choices REST and MCP offer.

const SHOTS = process.env.BRAND_SCREENSHOTS ?? join(tmpdir(), 'esign-dashboard-brands');

/** An SVG logo with a handler: the server stores it rasterised (a PNG shows on every page). */
const svgLogo = () =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40" onload="alert(1)"><rect width="120" height="40" fill="#7c3aed"/></svg>',
  );

/** get_account over MCP's HTTP endpoint (JSON-RPC), as an agent reads the brands. */
async function mcpBrands(baseUrl: string, key: string): Promise<unknown> {
  const headers = {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const call = async (body: object, session?: string) => {
    const res = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...headers, ...(session ? { 'mcp-session-id': session } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', ...body }),
    });
    const text = await res.text();
    const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
    return { session: res.headers.get('mcp-session-id') ?? session, body: JSON.parse(json) };
  };
  const init = await call({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'brands', version: '1' } },
  });
  const result = await call(
    { id: 2, method: 'tools/call', params: { name: 'get_account', arguments: {} } },
    init.session ?? undefined,
  );
  const content = result.body.result?.structuredContent ?? JSON.parse(result.body.result.content[0].text);
  return content.brands;
}

describe.runIf(browserTestsEnabled('dashboard brands'))('issue 44.1: the Brands page', () => {
  let d: DashboardFixture;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    d = await openDashboard({ template: { name: 'Lease', role: 'Tenant' } });
  }, 120_000);
  afterAll(() => d?.close());

  it('adds a brand with a logo; white on white is refused in words as the colour changes; a second brand becomes the default', async () => {
    const { page, t } = d;
    await page.goto(`${t.baseUrl}/brands`);
    await page.getByRole('heading', { name: 'No brands yet' }).waitFor();
    await page.getByRole('button', { name: 'Add brand' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a brand' });
    await dialog.getByLabel('Display name').fill('Acme <i>Law</i>');
    await dialog
      .getByLabel('Logo')
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: svgLogo() });
    await dialog.getByLabel('Primary colour as #rrggbb').fill('#ffffff');
    await expect
      .poll(() => dialog.getByTestId('contrast').textContent())
      .toContain('primary_color #ffffff against the white button text (#ffffff) has a contrast of 1.0:1');
    // The server refuses it too, naming the pair (the same rule, @esign/domain).
    await dialog.getByRole('button', { name: 'Add brand' }).click();
    await dialog
      .getByText(/primary_color #ffffff against the white button text/)
      .first()
      .waitFor();
    await dialog.getByLabel('Primary colour as #rrggbb').fill('#7c3aed');
    await dialog.getByLabel('Accent colour as #rrggbb').fill('#6d28d9');
    await dialog.getByText('Both colours pass WCAG AA on the signing page.').waitFor();
    await dialog.getByLabel('Support email').fill('help@acme.example');
    await dialog.getByRole('button', { name: 'Add brand' }).click();
    const card = page.getByRole('listitem', { name: 'Acme <i>Law</i>' });
    await card.getByText('Default', { exact: true }).waitFor();
    await card.getByRole('img', { name: 'Logo of Acme <i>Law</i>' }).waitFor();
    expect(await card.locator('i').count()).toBe(0);
    const listed = await t.api('GET', 'brands', { key: d.owner.key });
    expect(listed.body.data).toMatchObject([
      { name: 'Acme <i>Law</i>', primary_color: '#7c3aed', accent_color: '#6d28d9', is_default: true },
    ]);
    expect(listed.body.data[0].logo).toMatchObject({ content_type: 'image/png' });

    await page.getByRole('button', { name: 'Add brand' }).first().click();
    const second = page.getByRole('dialog', { name: 'Add a brand' });
    await second.getByLabel('Display name').fill('Clinic C');
    await second.getByRole('button', { name: 'Add brand' }).click();
    const clinic = page.getByRole('listitem', { name: 'Clinic C' });
    await clinic.getByRole('button', { name: 'Make default' }).click();
    await clinic.getByText('Default', { exact: true }).waitFor();
    await expect.poll(() => card.getByRole('button', { name: 'Make default' }).count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'brands-desktop.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The form in its dialog, on a phone: labelled colour pickers, no serious axe violation.
    await page.setViewportSize({ width: 390, height: 844 });
    await clinic.getByRole('button', { name: 'Edit Clinic C' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Clinic C' });
    await edit.getByLabel('Primary colour as #rrggbb').waitFor();
    expect(await edit.getByLabel('Primary colour', { exact: true }).inputValue()).toBe('#1d4ed8');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'brands-edit-phone.png') });
    await edit.getByRole('button', { name: 'Close' }).click();
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('issue 44.3: French words with variables preview as the email that goes out (HTML and text, sample data); an unknown variable is refused', async () => {
    const { page, t } = d;
    await page.goto(`${t.baseUrl}/brands`);
    await page.getByRole('button', { name: 'Email words of Acme <i>Law</i>' }).click();
    const dialog = page.getByRole('dialog', { name: 'Email words of Acme <i>Law</i>' });
    await dialog.getByLabel('Language').selectOption('fr');
    await dialog.getByLabel('Subject').fill('Contrat {{contrat}}');
    await dialog
      .getByLabel('Body')
      .fill('Bonjour {{signer.name}},\n\nSignez « {{request.title}} » ici : {{link}}');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog
      .getByText(/unknown variable \{\{contrat\}\}/)
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Save words' }).click();
    await dialog
      .getByText(/email_texts\.invitation\.fr\.subject: unknown variable \{\{contrat\}\}/)
      .first()
      .waitFor();

    await dialog.getByLabel('Subject').fill('Contrat {{request.title}} de {{sender.name}}');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    const preview = dialog.getByTestId('email-preview');
    await preview.getByTestId('preview-subject').waitFor();
    expect(await preview.getByTestId('preview-subject').textContent()).toBe(
      'Subject: Contrat Service agreement de Sam Sender',
    );
    const text = (await preview.getByTestId('preview-text').textContent()) ?? '';
    expect(text).toContain('Bonjour Alex Sample,');
    expect(text).toContain('Signez « Service agreement » ici : https://sign.example.com/s/sample-link');
    expect(text).toContain('help@acme.example');
    const frame = page.frameLocator('iframe[title="HTML part"]');
    await frame.getByText('Bonjour Alex Sample,').waitFor();
    expect(await frame.locator('html').getAttribute('lang')).toBe('fr');
    expect(await frame.locator('a[href="https://sign.example.com/s/sample-link"]').count()).toBe(1);
    expect(await frame.locator('img').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await frame.getByText('Acme <i>Law</i>').count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'brands-preview-fr.png') });

    await dialog.getByRole('button', { name: 'Save words' }).click();
    await page.getByText('Words saved').first().waitFor();
    const brands = await t.api('GET', 'brands', { key: d.owner.key });
    const acme = brands.body.data.find((b: { name: string }) => b.name === 'Acme <i>Law</i>');
    expect(acme.email_texts.invitation.fr.subject).toBe('Contrat {{request.title}} de {{sender.name}}');

    // Arabic, with the service's words in the brand's layout, right to left.
    await dialog.getByLabel('Language').selectOption('ar');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await frame.locator('html[lang="ar"][dir="rtl"]').waitFor();
    await page.screenshot({ path: join(SHOTS, 'brands-preview-ar.png') });
  });

  it('REST, MCP and the dashboard offer the same brand choices; the Send page and a template take one', async () => {
    const { page, t } = d;
    const rest = (await t.api('GET', 'brands', { key: d.owner.key })).body.data as {
      id: number;
      name: string;
      is_default: boolean;
    }[];
    const mcp = await mcpBrands(t.baseUrl, d.owner.key);
    expect(mcp).toEqual(rest.map((b) => ({ id: b.id, name: b.name, is_default: b.is_default })));

    await page.goto(`${t.baseUrl}/send?template=${d.templateId}`);
    const form = page.getByRole('form', { name: 'Send for signature' });
    const choice = form.getByLabel('Brand', { exact: true });
    await choice.waitFor();
    const options = await choice
      .locator('option')
      .evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, label: o.textContent })));
    expect(options.slice(1).map((o) => Number(o.value))).toEqual(rest.map((b) => b.id));
    const acme = rest.find((b) => b.name === 'Acme <i>Law</i>')!;
    await choice.selectOption(String(acme.id));
    await form.getByLabel('Reply-To').fill('desk@acme.example');
    const tenant = form.getByRole('group', { name: 'Tenant' });
    await tenant.getByLabel('Name', { exact: true }).fill('Tom Tenant');
    await tenant.getByLabel('Email').fill('tom@example.com');
    await form.getByRole('button', { name: 'Send for signature' }).click();
    await page.waitForURL(/\/requests\/\d+$/);
    const id = Number(page.url().split('/').pop());
    const sent = await t.api('GET', `signature_requests/${id}`, { key: d.owner.key });
    expect(sent.body.brand_id).toBe(acme.id);
    // Issue 44.4: a Reply-To per request (stored with it; its emails carry it over the brand's).
    const stored = await t.db
      .selectFrom('signature_requests')
      .select('reply_to')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.reply_to).toBe('desk@acme.example');

    await page.goto(`${t.baseUrl}/templates`);
    await page.getByLabel('Brand of Lease').selectOption(String(acme.id));
    await page.getByText('Brand of the template saved').first().waitFor();
    const tpl = await t.api('GET', `templates/${d.templateId}`, { key: d.owner.key });
    expect(tpl.body.brand_id).toBe(acme.id);
  });
});
