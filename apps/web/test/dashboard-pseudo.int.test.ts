import { LANGUAGE_NAMES } from '@esign/i18n/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsEnabled } from './browser.ts';
import { DASHBOARD_PAGES, type DashboardFixture, openDashboard, signedInContext } from './editor-helpers.ts';

// Issue 32, "the dashboard's strings should be ready to translate", checked on screen: every page
// of the dashboard shown in the pseudo-language en-XA (dashboard/src/messages/index.ts), where each
// catalogue message is accented between ⟦ and ⟧. A word a user can read (text, a label, a
// placeholder, a tooltip, the tab's title) that is neither from the catalogue nor data is English
// written inline: dashboard-words.test.ts finds it in the sources, this finds what that misses.

const SHOTS = '/tmp/esign-dashboard-pseudo';

/** Words Intl writes in the browser's own language (dates, times, relative times), not ours. */
const INTL_WORDS = new RegExp(
  [
    String.raw`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b`,
    String.raw`\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\b`,
    String.raw`\b[AP]M\b`,
    String.raw`\b(UTC|GMT)\b`,
    String.raw`\b(\d+ )?(second|minute|hour|day|week|month|year)s?( ago)?\b`,
    String.raw`\b(in|ago|now|yesterday|tomorrow|today|last|next)\b`,
  ].join('|'),
  'g',
);

/** Data, not words: addresses, links, codes and identifiers (`signature_request.completed`). */
const DATA = [
  /\S+@\S+/g,
  /https?:\/\/\S+/g,
  /\b[a-z0-9]+(?:[._-][a-z0-9]+)+\b/g,
  /\b(esk|sk|pk|whsec)_\S+/g,
  /\b[A-Z0-9]{2,}\b/g,
];

/** The English left on the page: text nodes and attributes with a word not from the catalogue. */
async function inlineEnglish(page: Page, data: string[]): Promise<string[]> {
  const found = await page.evaluate(() => {
    const out: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'CODE', 'PRE'].includes(el.tagName)) continue;
      if (el.closest('code, pre, [data-data]')) continue;
      if (el.tagName !== 'OPTION' && !el.checkVisibility()) continue;
      out.push(node.textContent ?? '');
    }
    for (const el of document.querySelectorAll<HTMLElement>('[aria-label], [placeholder], [title], [alt]'))
      for (const name of ['aria-label', 'placeholder', 'title', 'alt'])
        if (el.hasAttribute(name)) out.push(el.getAttribute(name) ?? '');
    return out;
  });
  const left: string[] = [];
  for (const text of found) {
    // Inside ⟦…⟧ is the catalogue's (a message with markup spans several text nodes, and its words
    // are accented in each); what is outside must be data or Intl's.
    let rest = text.replace(/⟦[^⟧]*(⟧|$)/g, ' ').replace(/^[^⟦]*⟧/, ' ');
    for (const d of data) rest = rest.split(d).join(' ');
    for (const pattern of DATA) rest = rest.replace(pattern, ' ');
    rest = rest.replace(INTL_WORDS, ' ');
    // An English word: three or more letters, none accented as the pseudo-language accents them.
    if (rest.split(/[^\p{L}]+/u).some((w) => /^[A-Za-z]{3,}$/.test(w))) left.push(text.trim().slice(0, 100));
  }
  return [...new Set(left)];
}

describe.runIf(browserTestsEnabled('dashboard pseudo-language'))(
  'issue 32: the dashboard in the pseudo-language en-XA shows no English written inline',
  () => {
    let d: DashboardFixture;
    let requestId: number;
    let page: Page;
    const data: string[] = [];

    beforeAll(async () => {
      d = await openDashboard({ template: { name: 'Ωμέγα', role: 'Ρόλος', text: { name: 'Όνομα' } } });
      const sent = await d.t.api('POST', 'signature_requests', {
        key: d.owner.key,
        body: {
          template_id: d.templateId,
          signers: [{ role: 'Ρόλος', name: 'Ἀλφα', email: 'alpha@example.com' }],
        },
      });
      expect(sent.status, sent.text).toBe(201);
      requestId = sent.body.id;
      const user = await d.t.db
        .selectFrom('users')
        .innerJoin('accounts', 'accounts.id', 'users.account_id')
        .select(['users.name as user', 'accounts.name as account'])
        .where('users.id', '=', d.owner.userId)
        .executeTakeFirstOrThrow();
      // The fixture's signature field is named `Signature` (data, as every field name).
      data.push(d.owner.email, user.user ?? '', user.account ?? '', 'Signature');
      // Names the server gives (the first API key, a document without a name), and each language
      // in its own name (the signers' language select): data too.
      data.push('Default key', 'Document 1', ...Object.values(LANGUAGE_NAMES));
      const tab = await signedInContext(d.browser, d.t, d.owner, { width: 1280, height: 900 });
      await tab.ctx.addInitScript(() => localStorage.setItem('esign.dashboard.locale', 'en-XA'));
      page = tab.page;
    }, 120_000);
    afterAll(() => d?.close());

    const pages = () => [
      ...DASHBOARD_PAGES,
      `/templates/${d.templateId}/edit`,
      `/templates/${d.templateId}/link`,
      `/requests/${requestId}`,
      '/verify',
    ];

    it('every page: each word on screen, in labels, placeholders, tooltips and the title is from the catalogue or data', async () => {
      const left: Record<string, string[]> = {};
      for (const path of pages()) {
        await page.goto(`${d.t.baseUrl}${path}`);
        await page.locator('main').first().waitFor();
        await page.waitForLoadState('networkidle');
        // The page has drawn what it loaded: no spinner left, and its own words are on screen.
        await expect.poll(() => page.locator('.loading').count(), { timeout: 20_000 }).toBe(0);

        const name = path === '/' ? 'overview' : path.replace(/\W+/g, '-').replace(/^-|-$/g, '');
        await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
        const english = await inlineEnglish(page, data);
        if (english.length) left[path] = english;
        expect(await page.evaluate(() => document.documentElement.lang), path).toBe('en-XA');
      }
      expect(left).toEqual({});
    }, 300_000);

    it('the pages of someone signed out (sign in, sign up, password reset, a sign-in link) too', async () => {
      const ctx = await d.browser.newContext({ viewport: { width: 1280, height: 900 } });
      await ctx.addInitScript(() => localStorage.setItem('esign.dashboard.locale', 'en-XA'));
      const out = await ctx.newPage();
      const left: Record<string, string[]> = {};
      try {
        for (const path of ['/login', '/signup', '/reset-password', '/login/link']) {
          await out.goto(`${d.t.baseUrl}${path}`);
          await out.locator('main').first().waitFor();
          await out.waitForLoadState('networkidle');
          await expect.poll(() => out.locator('.loading').count(), { timeout: 20_000 }).toBe(0);
          await out.screenshot({ path: `${SHOTS}/${path.replace(/\W+/g, '-').replace(/^-/, '')}.png` });
          const english = await inlineEnglish(out, data);
          if (english.length) left[path] = english;
        }
      } finally {
        await ctx.close();
      }
      expect(left).toEqual({});
    }, 120_000);
  },
);
