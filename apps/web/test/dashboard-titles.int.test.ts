import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsEnabled } from './browser.ts';
import { type DashboardFixture, openDashboard } from './editor-helpers.ts';

// Issue 42 item 8: every dashboard page has a <title> of its own, from the dashboard's catalogue
// (the page, then the product), so browser tabs, history and screen readers tell them apart.

describe.runIf(browserTestsEnabled('dashboard titles'))(
  'issue 42: each dashboard page has its own title',
  () => {
    let d: DashboardFixture;
    let requestId: number;

    beforeAll(async () => {
      d = await openDashboard({ template: { name: 'Lease', role: 'Tenant' } });
      const sent = await d.t.api('POST', 'signature_requests', {
        key: d.owner.key,
        body: { template_id: d.templateId, signers: [{ role: 'Tenant', email: 'tenant@example.com' }] },
      });
      expect(sent.status, sent.text).toBe(201);
      requestId = sent.body.id;
    }, 120_000);
    afterAll(() => d?.close());

    it('signed in: each page its own title "<page> · E-Signature", the request page naming its id', async () => {
      const expected: Record<string, string> = {
        '/': 'Overview',
        '/templates': 'Templates',
        '/send': 'Send',
        '/bulk': 'Bulk send',
        '/requests': 'Requests',
        [`/requests/${requestId}`]: `Request ${requestId}`,
        '/api-keys': 'API keys',
        '/connected-apps': 'Connected apps',
        '/webhooks': 'Webhooks',
        '/embed': 'Embedding',
        '/team': 'Team',
        '/billing': 'Billing',
        '/account': 'Account',
        [`/templates/${d.templateId}/edit`]: 'Edit template',
        [`/templates/${d.templateId}/link`]: 'Public signing link',
        '/verify': 'Verify a signed document',
        '/nope': 'Page not found',
      };
      const seen: Record<string, string> = {};
      for (const [path, title] of Object.entries(expected)) {
        await d.page.goto(`${d.t.baseUrl}${path}`);
        await d.page.locator('main').first().waitFor();
        await expect.poll(() => d.page.title(), { timeout: 10_000 }).toBe(`${title} · E-Signature`);
        seen[path] = await d.page.title();
      }
      expect(new Set(Object.values(seen)).size).toBe(Object.keys(expected).length);
    }, 180_000);

    it('signed out: sign in, sign up, password reset and a sign-in link have their own titles', async () => {
      const ctx = await d.browser.newContext();
      const page = await ctx.newPage();
      try {
        for (const [path, title] of [
          ['/login', 'Sign in'],
          ['/signup', 'Create an account'],
          ['/reset-password', 'Reset your password'],
          ['/login/link', 'Sign-in link'],
        ] as const) {
          await page.goto(`${d.t.baseUrl}${path}`);
          await expect.poll(() => page.title(), { timeout: 10_000 }).toBe(`${title} · E-Signature`);
        }
      } finally {
        await ctx.close();
      }
    }, 60_000);
  },
);
