import { createSession, sessionCookieName } from '@esign/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestAccount, TestApp } from '../../../test/harness.ts';
import { b64 } from '../../../test/pdfs.ts';

// Helpers for the template editor's browser tests (issue 12): a signed-in browser, the editor of a
// template, its save state, field boxes in page fractions, and touch gestures sent as real touch
// events (Chrome DevTools Protocol), which the page sees as touch pointer events.

export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

export interface EditorTab {
  ctx: BrowserContext;
  page: Page;
  problems: string[];
  /** URLs of page images the browser asked for. */
  images: string[];
}

/** A browser context signed in as the account's user (a session made by the production service). */
export async function signedInContext(
  browser: Browser,
  t: TestApp,
  owner: Pick<TestAccount, 'userId'>,
  viewport = DESKTOP,
  touch = false,
): Promise<EditorTab> {
  const session = await createSession(t.db, owner.userId, { ip: null, userAgent: null, now: new Date() });
  const ctx = await browser.newContext({ viewport, hasTouch: touch, isMobile: touch });
  await ctx.addCookies([{ name: sessionCookieName(t.config), value: session.token, url: t.baseUrl }]);
  const page = await ctx.newPage();
  const problems: string[] = [];
  const images: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(m.text());
  });
  page.on('request', (r) => {
    if (r.url().includes('/files/') && r.url().endsWith('.png')) images.push(r.url());
  });
  return { ctx, page, problems, images };
}

export async function openEditor(tab: EditorTab, t: TestApp, templateId: number): Promise<void> {
  await tab.page.goto(`${t.baseUrl}/templates/${templateId}/edit`);
  await tab.page.locator('.ed-page').first().waitFor({ timeout: 60_000 });
}

/** Waits until the editor says everything is saved. */
export async function waitSaved(page: Page): Promise<void> {
  await page.locator('.ed-save[data-status="saved"]').waitFor({ timeout: 20_000 });
}

export async function createTemplate(
  t: TestApp,
  owner: TestAccount,
  pdf: Uint8Array,
  body: Record<string, unknown> = {},
) {
  const res = await t.api('POST', 'templates', {
    key: owner.key,
    body: { name: 'Editor test', documents: [{ name: 'contract.pdf', file: b64(pdf) }], ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; roles: string[]; fields: unknown[]; edit_url: string };
}

export async function getTemplate(t: TestApp, owner: TestAccount, id: number) {
  const res = await t.api('GET', `templates/${id}`, { key: owner.key });
  expect(res.status).toBe(200);
  return res.body as {
    roles: string[];
    name: string;
    fields: {
      name: string;
      type: string;
      role: string;
      required: boolean;
      options?: string[];
      areas: { page: number; x: number; y: number; w: number; h: number; document: number }[];
    }[];
    documents: { id: number; name: string }[];
  };
}

/** A field box's place in the viewport. */
export async function boxOf(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not visible`);
  return box;
}

/** A one-finger drag from (x0, y0) to (x1, y1) in steps, as touchStart/touchMove/touchEnd. */
export async function touchDrag(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
  steps = 8,
) {
  const cdp = await page.context().newCDPSession(page);
  const point = (x: number, y: number) => [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from.x, from.y) });
  for (let i = 1; i <= steps; i++) {
    const x = from.x + ((to.x - from.x) * i) / steps;
    const y = from.y + ((to.y - from.y) * i) / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(x, y) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Counts template.updated events of a template (one per save). */
export async function updatedEvents(t: TestApp, templateId: number): Promise<number> {
  const rows = await t.db
    .selectFrom('webhook_events')
    .select('id')
    .where('type', '=', 'template.updated')
    .where('object_id', '=', templateId)
    .execute();
  return rows.length;
}

/** Waits until every page image the editor shows has loaded (for screenshots). */
export async function imagesLoaded(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLImageElement>('.ed-page img')].every(
        (i) => i.complete && i.naturalWidth > 0,
      ),
    undefined,
    { timeout },
  );
}
