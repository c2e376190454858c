import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobHandlers, startWorker, type WorkerHandle } from '@esign/core/jobs';
import { esign } from '@esign/testing/spawn';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../../packages/core/test/webhook-receiver.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// The dashboard's journeys in Chromium (operations.md §5 and the pages of issue 11). Every
// screenshot goes to a temporary folder; DASHBOARD_SCREENSHOTS=docs/screenshots also refreshes the
// README's pictures (the main pages at desktop and phone width).
const SHOTS = join(tmpdir(), 'esign-dashboard');
const DOCS = process.env.DASHBOARD_SCREENSHOTS;
const DOC_SHOTS = new Set([
  'desktop-overview',
  // desktop-templates and desktop-request-completed: dashboard-documents.int.test.ts (issue 33.7).
  'desktop-send',
  'desktop-api-key-created',
  'desktop-webhooks',
  'desktop-team',
  'phone-login',
  'phone-overview',
  'phone-menu',
  'phone-test-mode',
  'phone-account',
]);
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'correct horse battery';

/** A contract whose text tags become a name field and a signature field for the Client role. */
async function taggedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Consulting agreement', { x: 72, y: 700, size: 22, font });
  page.drawText('Client name: {{Client name;role=Client}}', { x: 72, y: 600, size: 12, font });
  page.drawText('Signature: {{signature;role=Client}}', { x: 72, y: 520, size: 12, font });
  return Buffer.from(await doc.save());
}

describe.runIf(browserTestsEnabled('dashboard'))('dashboard in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let worker: WorkerHandle;
  let env: Record<string, string>;
  let n = 0;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    if (DOCS) mkdirSync(DOCS, { recursive: true });
    [t, browser] = await Promise.all([startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }), launchChromium()]);
    env = { DATABASE_URL: t.dbUrl, PUBLIC_URL: t.baseUrl };
    worker = startWorker(
      { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
      jobHandlers,
      { concurrency: 2, pollMs: 100 },
    );
  });
  afterAll(async () => {
    await worker?.stop();
    await browser?.close();
    await t?.close();
  });

  /** `esign account create --password`, as an operator would. */
  async function operatorAccount(extra: string[] = []): Promise<string> {
    const email = `owner${++n}-${Date.now()}@example.com`;
    const r = await esign(
      [
        'account',
        'create',
        '--email',
        email,
        '--name',
        'Olivia Owner',
        '--account-name',
        'Acme Legal',
        '--password',
        PASSWORD,
        '--credits',
        '10',
        '--json',
        ...extra,
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    return email;
  }

  async function newPage(
    viewport = DESKTOP,
  ): Promise<{ ctx: BrowserContext; page: Page; problems: string[] }> {
    const ctx = await browser.newContext({ viewport, acceptDownloads: true });
    const page = await ctx.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(m.text());
    });
    return { ctx, page, problems };
  }

  async function signIn(page: Page, email: string, password = PASSWORD, path = '/') {
    await page.goto(`${t.baseUrl}${path}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const form = page.getByRole('tabpanel', { name: 'Password' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: /^Account menu/ }).waitFor();
  }

  async function shot(page: Page, name: string) {
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    if (DOCS && DOC_SHOTS.has(name)) await page.screenshot({ path: join(DOCS, `${name}.png`) });
  }

  /** The newest email of a kind to an address, once there are `count` (the worker sends them). */
  async function latestMail(to: string, kind: string, count = 1) {
    await expect
      .poll(
        async () =>
          (
            await t.db
              .selectFrom('mail_outbox')
              .select('id')
              .where('to_address', '=', to)
              .where('kind', '=', kind)
              .execute()
          ).length,
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(count);
    return t.db
      .selectFrom('mail_outbox')
      .select(['links', 'subject'])
      .where('to_address', '=', to)
      .where('kind', '=', kind)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  }

  it('an operator-made user signs in, uploads a PDF with text tags, sends it; the signer signs; the sealed PDF downloads', async () => {
    const email = await operatorAccount();
    const { ctx, page, problems } = await newPage();
    await signIn(page, email, PASSWORD, '/templates');
    expect(new URL(page.url()).pathname).toBe('/templates');
    await page.getByRole('heading', { name: 'No templates yet' }).waitFor();
    await shot(page, 'desktop-templates-empty');

    // Upload by choosing the file (the drop zone's input); a progress bar runs while it uploads.
    const pdfPath = join(tmpdir(), `consulting-${Date.now()}.pdf`);
    writeFileSync(pdfPath, await taggedPdf());
    await page.getByTestId('template-file').setInputFiles(pdfPath);
    await page.getByLabel('Template name (optional)').fill('Consulting agreement');
    await page.getByLabel('Folder (optional)').fill('Sales');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('“Consulting agreement” is ready.').waitFor();
    await page.getByRole('list', { name: 'Templates' }).getByText('Roles: Client').waitFor();
    await shot(page, 'desktop-templates');

    await page.getByRole('link', { name: 'Send it for signature' }).click();
    await page.getByRole('group', { name: 'Client' }).waitFor();
    await page.getByRole('group', { name: 'Client' }).getByLabel('Name', { exact: true }).fill('Cleo Client');
    await page.getByRole('group', { name: 'Client' }).getByLabel('Email').fill('cleo@example.com');
    await shot(page, 'desktop-send');
    await page.getByRole('button', { name: 'Send for signature' }).click();
    await page.waitForURL(/\/requests\/\d+$/);
    await page.getByText('Invited').or(page.getByText('Ready (link not sent yet)')).first().waitFor();
    await shot(page, 'desktop-request-sent');

    // The signer opens the link from their email and signs.
    const invite = await latestMail('cleo@example.com', 'invitation');
    const signer = await ctx.newPage();
    await signer.goto(invite.links[0]!);
    const field = (name: string) =>
      signer.locator('main').getByRole('button', { name: new RegExp(`^${name} \\(`) });
    const dialog = signer.getByRole('dialog');
    await field('Client name').click();
    await dialog.getByLabel(/Client name/).fill('Cleo Client');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await field('Signature').click();
    const canvas = dialog.locator('canvas');
    await canvas.waitFor();
    const box = (await canvas.boundingBox())!;
    await signer.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.6);
    await signer.mouse.down();
    for (let i = 1; i <= 10; i++)
      await signer.mouse.move(
        box.x + box.width * (0.2 + i * 0.05),
        box.y + box.height * (0.6 - Math.sin(i) * 0.2),
      );
    await signer.mouse.up();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await signer.getByRole('button', { name: 'Finish' }).click();
    // The review step (issue 14), then Sign.
    await signer
      .getByRole('dialog', { name: 'Review and sign' })
      .getByRole('button', { name: 'Sign' })
      .click();
    await signer.getByRole('heading', { name: 'Document signed' }).waitFor();

    // Back in the dashboard: completed, sealed, and the signed PDF downloads.
    await page.reload();
    await page.getByRole('heading', { name: 'Signed documents' }).waitFor();
    const link = page.getByRole('link', { name: /^consulting-\d+\.pdf$/ });
    await link.waitFor({ timeout: 30_000 });
    await page.getByText('Cleo Client signed').waitFor();
    await shot(page, 'desktop-request-completed');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    // A stream, not a path: the browser runs in another process (launchChromium).
    const pdf = Buffer.concat(await (await download.createReadStream()).toArray());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.includes(Buffer.from('/ByteRange'))).toBe(true);

    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByText('Completed in 30 days').waitFor();
    await shot(page, 'desktop-overview');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('an admin creates a key (shown once, with a copy button) and revokes it: the revoked key gets 401 on /api/v1/me', async () => {
    const email = await operatorAccount();
    const { ctx, page, problems } = await newPage();
    await signIn(page, email);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Zapier');
    await page.getByLabel('Permission').selectOption('read');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    expect(secret).toMatch(/^svc_live_/);
    await expect.poll(() => page.getByRole('button', { name: 'Copy key' }).isVisible()).toBe(true);
    await shot(page, 'desktop-api-key-created');
    expect((await t.api('GET', 'me', { key: secret })).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('cell', { name: 'Zapier', exact: true }).waitFor();
    await shot(page, 'desktop-api-keys');
    await page.getByRole('button', { name: 'Revoke key Zapier' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key revoked').first().waitFor();
    const me = await t.api('GET', 'me', { key: secret });
    expect(me.status).toBe(401);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('an admin adds a webhook endpoint, sends a test, sees the delivery in the log, then deletes the endpoint after a confirm that names its URL and says deliveries stop', async () => {
    const receiver = await startReceiver();
    try {
      const email = await operatorAccount();
      const { ctx, page, problems } = await newPage();
      await signIn(page, email);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'No endpoints yet' }).waitFor();
      await page.getByRole('button', { name: 'Add endpoint' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('URL').fill(receiver.url);
      await dialog.getByRole('button', { name: 'Add a header' }).click();
      await dialog.getByLabel('Header 1 name').fill('X-Team');
      await dialog.getByLabel('Header 1 value').fill('legal');
      await dialog.getByRole('button', { name: 'Add endpoint' }).click();
      receiver.secret = (await page.getByTestId('webhook-secret').textContent())!;
      expect(receiver.secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('button', { name: 'Send test' }).click();
      await page
        .getByText(/Test delivered: HTTP 200/)
        .first()
        .waitFor();
      await receiver.waitFor(1);
      expect(receiver.requests[0]!.verified).toBe(true);
      expect(receiver.requests[0]!.headers['x-team']).toBe('legal');
      const log = page.getByRole('region', { name: 'Delivery log' }).or(page.locator('.deliveries'));
      await log.getByText('webhook.test').first().waitFor();
      await shot(page, 'desktop-webhooks');
      // Deleting: the confirm names the URL and says its deliveries stop; the card and log go.
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete this endpoint?' });
      await confirm.getByText(receiver.url).waitFor();
      await confirm.getByText(/stops receiving events at once: deliveries waiting/).waitFor();
      await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByText('Endpoint deleted: no more deliveries').first().waitFor();
      await page.getByRole('heading', { name: 'No endpoints yet' }).waitFor();
      expect(await page.getByRole('article', { name: `Endpoint ${receiver.url}` }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Delivery log' }).count()).toBe(0);
      expect(problems).toEqual([]);
      await ctx.close();
    } finally {
      await receiver.close();
    }
  });

  it('an admin invites a member by email; they accept, sign in as a member and cannot see API keys', async () => {
    const email = await operatorAccount();
    const { ctx, page, problems } = await newPage();
    await signIn(page, email);
    await page.getByRole('link', { name: 'Team' }).click();
    const invitee = `member${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(invitee);
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation emailed to ${invitee}`).first().waitFor();
    await page.getByText('Pending invitations').waitFor();
    await shot(page, 'desktop-team');

    const mail = await latestMail(invitee, 'member_invitation');
    const other = await newPage();
    await other.page.goto(mail.links[0]!);
    await other.page.getByRole('heading', { name: 'Join Acme Legal' }).waitFor();
    await other.page.getByLabel('Your name').fill('Max Member');
    await other.page.getByLabel('Password').fill('member password 1');
    await other.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await other.page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await other.page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    await other.page.goto(`${t.baseUrl}/api-keys`);
    await other.page.getByRole('heading', { name: 'Only admins can see this page' }).waitFor();
    expect(other.problems).toEqual([]);
    await other.ctx.close();

    await page.reload();
    await page.getByText('Max Member').waitFor();
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('signs in with a one-time link sent by email', async () => {
    const email = await operatorAccount();
    const { ctx, page, problems } = await newPage();
    await page.goto(`${t.baseUrl}/login`);
    await page.getByRole('tab', { name: 'Email me a link' }).click();
    await page.getByRole('tabpanel').getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText(/an email is on its way/).waitFor();
    await shot(page, 'desktop-login-link-sent');
    const mail = await latestMail(email, 'sign_in_link');
    await page.goto(mail.links[0]!);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    // The link works once.
    const again = await newPage();
    await again.page.goto(mail.links[0]!);
    await again.page.getByText('This sign-in link has expired or was already used').waitFor();
    await again.ctx.close();
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('a sign-in link asked for from /login?next=… returns there once used (the OAuth consent page, a dashboard page)', async () => {
    const email = await operatorAccount();
    const nexts = ['/api-keys', '/oauth/authorize?client_id=not-registered&response_type=code'];
    for (const [i, next] of nexts.entries()) {
      const { ctx, page } = await newPage();
      await page.goto(`${t.baseUrl}/login?next=${encodeURIComponent(next)}`);
      await page.getByRole('tab', { name: 'Email me a link' }).click();
      await page.getByRole('tabpanel').getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.getByText(/an email is on its way/).waitFor();
      // The link is emailed by a job: wait for this request's own email.
      const mail = await latestMail(email, 'sign_in_link', i + 1);
      expect(new URL(mail.links[0]!).searchParams.get('next')).toBe(next);
      // Opened in another browser (as from a phone's mail app): the link alone carries `next`.
      const other = await newPage();
      await other.page.goto(mail.links[0]!);
      // /login/link signs in by a call of its own, then goes on: poll past a busy machine's delay.
      await expect
        .poll(
          () => {
            const u = new URL(other.page.url());
            return u.pathname + u.search;
          },
          { timeout: 30_000 },
        )
        .toBe(next);
      await other.ctx.close();
      await ctx.close();
    }
  });

  it('works on a phone: the menu opens as a drawer, test mode shows a banner, pages fit the screen', async () => {
    const email = await operatorAccount();
    const { ctx, page, problems } = await newPage(PHONE);
    await page.goto(`${t.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot(page, 'phone-login');
    await signIn(page, email);
    await shot(page, 'phone-overview');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog');
    await shot(page, 'phone-menu');
    await drawer.getByRole('switch').click();
    await page.getByText('Test mode.').waitFor();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await shot(page, 'phone-test-mode');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Requests' }).click();
    await page.getByRole('heading', { name: 'No requests yet' }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await page.goto(`${t.baseUrl}/account`);
    await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    await shot(page, 'phone-account');
    expect(problems).toEqual([]);
    await ctx.close();
  });
});
