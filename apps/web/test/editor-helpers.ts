import { sessionCookieName } from '@esign/core';
import { jobHandlers, startWorker, type WorkerHandle } from '@esign/core/jobs';
import { createSession } from '@esign/core/testing';
import { makeTemplate } from '@esign/testing/fixtures';
import { b64, plainPdf } from '@esign/testing/pdfs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { launchChromium } from './browser.ts';

// Helpers for the dashboard's browser tests: a signed-in browser and the set-up of a dashboard
// suite (openDashboard); for the template editor's (issue 12), the editor of a template, its save
// state, field boxes in page fractions, and touch gestures sent as real touch events (Chrome
// DevTools Protocol), which the page sees as touch pointer events.

export const DESKTOP = { width: 1280, height: 860 };

/** The dashboard's pages that need no id, and one that does not exist (its not-found page). */
export const DASHBOARD_PAGES = [
  '/',
  '/templates',
  '/send',
  '/bulk',
  '/requests',
  '/api-keys',
  '/connected-apps',
  '/webhooks',
  '/embed',
  '/team',
  '/billing',
  '/account',
  '/nope',
];
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

export interface DashboardFixture {
  t: TestApp;
  browser: Browser;
  owner: TestAccount;
  /** A 1280×900 page signed in as the owner. */
  page: Page;
  templateId: number;
  close(): Promise<void>;
}

/** The template of a dashboard suite: a signature for `role` and, with `text`, one text field. */
export interface DashboardTemplate {
  name: string;
  role: string;
  text?: { name: string; required?: boolean };
}

function dashboardTemplateBody(tpl: DashboardTemplate, file: string) {
  const area = (y: number) => [{ page: 1, x: 0.1, y, w: 0.3, h: 0.05 }];
  const fields: Record<string, unknown>[] = [
    { name: 'Signature', type: 'signature', role: tpl.role, areas: area(0.7) },
  ];
  if (tpl.text) fields.push({ ...tpl.text, type: 'text', role: tpl.role, areas: area(0.3) });
  return { name: tpl.name, documents: [{ file }], fields };
}

/**
 * The set-up of a dashboard browser suite: the app and Chromium, an owner with 5 credits and a live
 * key, the template on a one-page PDF, a page signed in as the owner, and with `worker` the job
 * worker (for suites that wait on sends).
 */
export async function openDashboard(o: {
  template: DashboardTemplate;
  worker?: boolean;
}): Promise<DashboardFixture> {
  const [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
  let worker: WorkerHandle | undefined;
  const close = async () => {
    await worker?.stop();
    await browser.close();
    await t.close();
  };
  try {
    if (o.worker) {
      const ctx = { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() };
      worker = startWorker(ctx, jobHandlers, { concurrency: 1, pollMs: 100 });
    }
    const owner = await createTestAccount(t.db, { credits: 5 });
    const template = await makeTemplate(t, owner, dashboardTemplateBody(o.template, b64(await plainPdf(1))));
    const { page } = await signedInContext(browser, t, owner, { width: 1280, height: 900 });
    return { t, browser, owner, page, templateId: template.id, close };
  } catch (err) {
    await close();
    throw err;
  }
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
