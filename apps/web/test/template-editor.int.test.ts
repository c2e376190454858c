import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobHandlers, startWorker, type WorkerHandle } from '@esign/core/jobs';
import { createUser } from '@esign/core/operator';
import { producedFiles } from '@esign/core/testing';
import { FIELD_TYPES, type FieldType } from '@esign/domain';
import { plainPdf } from '@esign/testing/pdfs';
import { tokenOf, trpc } from '@esign/testing/signing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signaturePng, wordBoxes } from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';
import {
  boxOf,
  createTemplate,
  DESKTOP,
  getTemplate,
  imagesLoaded,
  openEditor,
  PHONE,
  signedInContext,
  touchDrag,
  updatedEvents,
  waitSaved,
} from './editor-helpers.ts';

// The template editor at edit_url (issue 12) in Chromium. EDITOR_SHOTS=<dir> keeps the screenshots.
const SHOTS = process.env.EDITOR_SHOTS ?? mkdtempSync(join(tmpdir(), 'esign-editor-shots-'));
const PNG = signaturePng();

interface Placement {
  type: FieldType;
  name: string;
  page: number;
  role: 'Client' | 'Agent';
  box: { x: number; y: number; w: number; h: number };
  options?: string[];
  /** words the sealed page must show inside the box */
  drawn?: string[];
  /** a picture or mark: ink inside the box */
  picture?: number;
}

const GENERATED: Record<FieldType, string> = {
  text: 'Text Field 1',
  signature: 'Signature 1',
  initials: 'Initials 1',
  date: 'Date 1',
  checkbox: 'Checkbox 1',
  number: 'Number 1',
  phone: 'Phone 1',
  select: 'Select 1',
  radio: 'Radio 1',
  multiple: 'Multiple Select 1',
  image: 'Image 1',
  file: 'File 1',
  stamp: 'Stamp 1',
  cells: 'Cells 1',
};
const OPTIONS: Partial<Record<FieldType, string[]>> = {
  select: ['Red', 'Green'],
  radio: ['North', 'South'],
  multiple: ['Xray', 'Yankee', 'Zulu'],
};
const VALUES: Record<FieldType, unknown> = {
  text: 'Tango',
  signature: PNG,
  initials: PNG,
  date: '2026-03-04',
  checkbox: true,
  number: 4242,
  phone: '+15550100',
  select: 'Green',
  radio: 'South',
  multiple: ['Xray', 'Zulu'],
  image: PNG,
  file: { name: 'notes.txt', type: 'text/plain', data: 'data:text/plain;base64,aGVsbG8=' },
  stamp: PNG,
  cells: 'ABC',
};
const DRAWN: Partial<Record<FieldType, string[]>> = {
  text: ['Tango'],
  // Issue 42.6: drawn in the signer's language (English here), stored canonically.
  date: ['03/04/2026'],
  number: ['4,242'],
  phone: ['+15550100'],
  select: ['Green'],
  radio: ['South'],
  multiple: ['Xray', 'Zulu'],
  cells: ['A', 'B', 'C', 'ABC'],
};
const INK: Partial<Record<FieldType, number>> = {
  signature: 0.02,
  initials: 0.02,
  image: 0.02,
  stamp: 0.02,
  checkbox: 0.004,
};

/** Field i on page (i mod 3) + 1, two columns, rows down the page; roles alternate. */
function placementPlan(): Placement[] {
  return FIELD_TYPES.map((type, i) => ({
    type,
    name: GENERATED[type],
    page: (i % 3) + 1,
    role: i % 2 ? 'Agent' : 'Client',
    box: { x: 0.1 + (i % 2) * 0.45, y: 0.1 + Math.floor(i / 3) * 0.17, w: 0.3, h: 0.05 },
    ...(OPTIONS[type] ? { options: OPTIONS[type] } : {}),
    ...(DRAWN[type] ? { drawn: DRAWN[type] } : {}),
    ...(INK[type] ? { picture: INK[type] } : {}),
  }));
}

function signingValues(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = { Client: {}, Agent: {} };
  for (const p of placementPlan()) out[p.role]![p.name] = VALUES[p.type];
  return out;
}

/** Scrolls the pages so a point of a page is in the middle of the view; its page box afterwards. */
async function pageBoxAt(page: Page, pageNumber: number, y: number) {
  const el = page.locator(`.ed-page[data-page$=":${pageNumber}"]`).first();
  await el.evaluate((node, fy) => {
    const pages = node.closest('.ed-pages') as HTMLElement;
    const r = node.getBoundingClientRect();
    const pr = pages.getBoundingClientRect();
    pages.scrollTop += r.top - pr.top + fy * r.height - pr.height / 2;
  }, y);
  const box = await el.boundingBox();
  if (!box) throw new Error(`page ${pageNumber} is not visible`);
  return box;
}

/** Picks the role and the type, draws the box with the mouse, sets options and required. */
async function drawField(page: Page, p: Placement) {
  await page.getByLabel(`Place fields for ${p.role}`).check();
  await page.locator(`.ed-type[data-type="${p.type}"]`).click();
  const b = await pageBoxAt(page, p.page, p.box.y);
  await page.mouse.move(b.x + p.box.x * b.width, b.y + p.box.y * b.height);
  await page.mouse.down();
  await page.mouse.move(b.x + (p.box.x + p.box.w) * b.width, b.y + (p.box.y + p.box.h) * b.height, {
    steps: 4,
  });
  await page.mouse.up();
  await page.locator(`.ed-field.selected[data-field="${p.name}"]`).waitFor();
  if (p.options) await page.locator('#ed-options').fill(p.options.join('\n'));
  if (p.type === 'checkbox') await page.getByRole('checkbox', { name: 'Required' }).uncheck();
}

/** POST /signature_requests for both roles, both sign on the signing procedures, the worker seals. */
async function sendSignAndSeal(
  t: TestApp,
  owner: TestAccount,
  templateId: number,
  values: Record<string, Record<string, unknown>>,
): Promise<string> {
  const sent = await t.api('POST', 'signature_requests', {
    key: owner.key,
    body: {
      template_id: templateId,
      signing_order: 'parallel',
      signers: [
        { role: 'Client', name: 'Cleo Client', email: 'cleo@example.com' },
        { role: 'Agent', name: 'Abe Agent', email: 'abe@example.com' },
      ],
    },
  });
  expect(sent.status, sent.text).toBe(201);
  for (const s of sent.body.signers as { role: string; signing_url: string }[]) {
    const token = tokenOf(s.signing_url);
    expect((await trpc(t, 'open', { token }, 'query')).error).toBeNull();
    const done = await trpc(t, 'complete', { token, values: values[s.role] });
    expect(done.error, JSON.stringify(done.error)).toBeNull();
  }
  const row = () =>
    t.db
      .selectFrom('signature_requests')
      .selectAll()
      .where('id', '=', sent.body.id)
      .executeTakeFirstOrThrow();
  await expect
    .poll(async () => (await row()).sealing_status, { timeout: 120_000, interval: 500 })
    .toBe('done');
  const doc = producedFiles((await row()).documents).find((f) => f.kind === 'document')!;
  const file = join(mkdtempSync(join(tmpdir(), 'esign-editor-sealed-')), 'sealed.pdf');
  writeFileSync(file, await t.rt.deps.storage.get(doc.storage_key));
  return file;
}

/** Share of dark pixels inside a box of a page rendered at 72 dpi (one pixel per point). */
function inkIn(
  file: string,
  pageNumber: number,
  box: { x: number; y: number; w: number; h: number },
): number {
  const out = join(mkdtempSync(join(tmpdir(), 'esign-editor-ink-')), 'p');
  execFileSync('pdftoppm', [
    '-gray',
    '-r',
    '72',
    '-f',
    String(pageNumber),
    '-l',
    String(pageNumber),
    '-singlefile',
    file,
    out,
  ]);
  const pgm = readFileSync(`${out}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  let dark = 0;
  let all = 0;
  for (let y = Math.ceil(box.y * height); y < Math.floor((box.y + box.h) * height); y++)
    for (let x = Math.ceil(box.x * width); x < Math.floor((box.x + box.w) * width); x++) {
      all++;
      if (pixels[y * width + x]! < 128) dark++;
    }
  return dark / all;
}

describe.runIf(browserTestsEnabled('template editor'))('template editor in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let worker: WorkerHandle;
  let owner: TestAccount;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    owner = await createTestAccount(t.db, { credits: 20 });
    worker = startWorker(
      { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
      jobHandlers,
      { concurrency: 2, pollMs: 100 },
    );
  }, 240_000);
  afterAll(async () => {
    await worker?.stop();
    await browser?.close();
    await t?.close();
  });

  it('places one field of each of the 14 types across 3 pages and 2 roles with options and required, keeps them on reload, and they are signed and sealed where they were placed (spec: template field types, Field area)', async () => {
    const tpl = await createTemplate(t, owner, await plainPdf(3));
    expect(tpl.fields).toEqual([]);
    const tab = await signedInContext(browser, t, owner);
    await openEditor(tab, t, tpl.id);
    const { page } = tab;
    await page.getByLabel('Role 1 name').fill('Client');
    await page.getByRole('button', { name: 'Add role' }).click();
    await page.getByLabel('Role 2 name').fill('Agent');
    const plan = placementPlan();
    for (const p of plan) await drawField(page, p);
    await waitSaved(page);
    await imagesLoaded(page);
    await page.screenshot({ path: join(SHOTS, 'desktop-editor-14-types.png') });

    const saved = await getTemplate(t, owner, tpl.id);
    expect(saved.roles).toEqual(['Client', 'Agent']);
    expect(saved.fields.map((f) => f.type).sort()).toEqual([...FIELD_TYPES].sort());
    for (const p of plan) {
      const f = saved.fields.find((x) => x.type === p.type)!;
      expect(f.name).toBe(p.name);
      expect(f.role).toBe(p.role);
      expect(f.required).toBe(p.type !== 'checkbox');
      if (p.options) expect(f.options).toEqual(p.options);
      expect(f.areas).toHaveLength(1);
      const a = f.areas[0]!;
      expect([a.document, a.page]).toEqual([0, p.page]);
      for (const k of ['x', 'y', 'w', 'h'] as const)
        expect(Math.abs(a[k] - p.box[k]), `${p.type}.${k}`).toBeLessThan(0.004);
    }

    await page.reload();
    await page.locator('.ed-field').nth(13).waitFor();
    expect(await page.locator('.ed-field').count()).toBe(14);
    await page.locator(`.ed-field[data-field="Select 1"]`).click();
    await expect.poll(() => page.locator('#ed-options').inputValue()).toBe('Red\nGreen');
    expect(tab.problems).toEqual([]);
    await tab.ctx.close();

    const sealed = await sendSignAndSeal(t, owner, tpl.id, signingValues());
    for (const p of plan.filter((x) => x.drawn)) {
      const words = wordBoxes(sealed, p.page).filter((w) => p.drawn!.includes(w.text.replace(/,$/, '')));
      expect(words.length, `${p.type} drawn on page ${p.page}`).toBeGreaterThan(0);
      const rect = {
        x0: p.box.x * 612,
        y0: p.box.y * 792,
        x1: (p.box.x + p.box.w) * 612,
        y1: (p.box.y + p.box.h) * 792,
      };
      for (const w of words) {
        expect(w.xMin, `${p.type} left`).toBeGreaterThanOrEqual(rect.x0 - 1);
        expect(w.xMax, `${p.type} right`).toBeLessThanOrEqual(rect.x1 + 1);
        expect(w.yMin, `${p.type} top`).toBeGreaterThanOrEqual(rect.y0 - 1);
        expect(w.yMax, `${p.type} bottom`).toBeLessThanOrEqual(rect.y1 + 1);
      }
    }
    for (const p of plan.filter((x) => x.picture))
      expect(inkIn(sealed, p.page, p.box), `${p.type} ink`).toBeGreaterThan(p.picture!);
    // And nothing where no field was placed (the ink test can fail).
    expect(inkIn(sealed, 1, { x: 0.1, y: 0.92, w: 0.8, h: 0.05 })).toBe(0);
  }, 300_000);

  /** A one-page template with a text field for Signer at (0.1, 0.1), and its editor open. */
  async function oneFieldEditor(viewport = DESKTOP, touch = false, extraFields: unknown[] = []) {
    const tpl = await createTemplate(t, owner, await plainPdf(2), {
      fields: [
        { name: 'Name', type: 'text', role: 'Signer', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] },
        ...extraFields,
      ],
    });
    const tab = await signedInContext(browser, t, owner, viewport, touch);
    await openEditor(tab, t, tpl.id);
    return { tpl, tab, page: tab.page };
  }
  const areaOf = async (id: number, name = 'Name', i = 0) =>
    (await getTemplate(t, owner, id)).fields.find((f) => f.name === name)!.areas[i]!;

  it('keyboard only: Enter on a palette type places the field, arrows move it, Alt+arrows resize it, Ctrl+D duplicates, Delete removes, Ctrl+Z / Ctrl+Shift+Z undo and redo', async () => {
    const tpl = await createTemplate(t, owner, await plainPdf(1));
    const tab = await signedInContext(browser, t, owner);
    await openEditor(tab, t, tpl.id);
    const { page } = tab;
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.type === 'text'))
        break;
    }
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.type)).toBe('text');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-field'))).toBe(
      'Text Field 1',
    );
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    for (let i = 0; i < 2; i++) await page.keyboard.press('Alt+ArrowRight');
    await waitSaved(page);
    // Placed at (0.375, 0.08), 0.25 x 0.035; moved 4 and 2 small steps (0.005) and one large (0.05).
    const a = await areaOf(tpl.id, 'Text Field 1');
    expect(a.x).toBeCloseTo(0.395, 6);
    expect(a.y).toBeCloseTo(0.14, 6);
    expect(a.w).toBeCloseTo(0.26, 6);
    expect(a.h).toBeCloseTo(0.035, 6);

    await page.keyboard.press('Control+d');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-field'))).toBe(
      'Text Field 2',
    );
    await page.keyboard.press('Delete');
    expect(await page.locator('.ed-field').count()).toBe(1);
    await page.keyboard.press('Control+z');
    expect(await page.locator('.ed-field').count()).toBe(2);
    await page.keyboard.press('Control+Shift+z');
    expect(await page.locator('.ed-field').count()).toBe(1);
    await waitSaved(page);
    expect((await getTemplate(t, owner, tpl.id)).fields.map((f) => f.name)).toEqual(['Text Field 1']);
    expect(tab.problems).toEqual([]);
    await tab.ctx.close();
  }, 120_000);

  it("mouse: a field dragged near another field's left edge snaps to it; the corner handle resizes", async () => {
    const { tpl, tab, page } = await oneFieldEditor(DESKTOP, false, [
      { name: 'Other', type: 'text', role: 'Signer', areas: [{ page: 1, x: 0.5, y: 0.4, w: 0.3, h: 0.05 }] },
    ]);
    const pg = await pageBoxAt(page, 1, 0.3);
    const field = await boxOf(page, '.ed-field[data-field="Name"]');
    // Drag so its left edge would land 0.4 % of the page right of Other's left edge (0.5).
    const dx = (0.504 - 0.1) * pg.width;
    const dy = (0.3 - 0.1) * pg.height;
    await page.mouse.move(field.x + 20, field.y + 10);
    await page.mouse.down();
    await page.mouse.move(field.x + 20 + dx, field.y + 10 + dy, { steps: 6 });
    await page.mouse.up();
    await waitSaved(page);
    let a = await areaOf(tpl.id);
    expect(a.x).toBeCloseTo(0.5, 6);
    expect(a.y).toBeCloseTo(0.3, 2);
    const handle = await boxOf(page, '.ed-field[data-field="Name"] .ed-handle');
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(
      handle.x + handle.width / 2 - 0.1 * pg.width,
      handle.y + handle.height / 2 + 0.02 * pg.height,
      { steps: 5 },
    );
    await page.mouse.up();
    await waitSaved(page);
    a = await areaOf(tpl.id);
    expect(a.w).toBeCloseTo(0.2, 2);
    expect(a.h).toBeCloseTo(0.07, 2);
    expect(tab.problems).toEqual([]);
    await tab.ctx.close();
  }, 120_000);

  it('phone width: a field is placed by tapping, moved and resized by touch (touch pointer events)', async () => {
    const { tpl, tab, page } = await oneFieldEditor(PHONE, true);
    await imagesLoaded(page);
    await page.screenshot({ path: join(SHOTS, 'phone-editor.png') });
    let field = await boxOf(page, '.ed-field[data-field="Name"]');
    await page.touchscreen.tap(field.x + field.width / 2, field.y + field.height / 2);
    await page.locator('.ed-field.selected[data-field="Name"]').waitFor();
    // Selecting scrolls the field above the properties sheet: measure it again.
    await page.waitForTimeout(300);
    field = await boxOf(page, '.ed-field[data-field="Name"]');
    let pg = await boxOf(page, '.ed-page[data-page$=":1"]');
    await touchDrag(
      page,
      { x: field.x + 10, y: field.y + 8 },
      { x: field.x + 10 + 0.2 * pg.width, y: field.y + 8 + 0.1 * pg.height },
    );
    await waitSaved(page);
    let a = await areaOf(tpl.id);
    expect(a.x).toBeCloseTo(0.3, 2);
    expect(a.y).toBeCloseTo(0.2, 2);
    const handle = await boxOf(page, '.ed-field[data-field="Name"] .ed-handle');
    const c = { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 };
    await touchDrag(page, c, { x: c.x + 0.1 * pg.width, y: c.y + 0.03 * pg.height });
    await waitSaved(page);
    a = await areaOf(tpl.id);
    expect(a.w).toBeCloseTo(0.4, 2);
    expect(a.h).toBeCloseTo(0.08, 2);
    await imagesLoaded(page);
    await page.screenshot({ path: join(SHOTS, 'phone-editor-selected.png') });

    await page.getByRole('button', { name: 'Done' }).tap();
    await page.locator('.ed-type[data-type="signature"]').tap();
    pg = await boxOf(page, '.ed-page[data-page$=":1"]');
    await page.touchscreen.tap(pg.x + 0.5 * pg.width, pg.y + 0.6 * pg.height);
    await page.locator('.ed-field[data-field="Signature 1"]').waitFor();
    await waitSaved(page);
    expect((await getTemplate(t, owner, tpl.id)).fields.map((f) => f.type)).toEqual(['text', 'signature']);
    expect(tab.problems).toEqual([]);
    await tab.ctx.close();
  }, 120_000);

  it('two editors of one template: the second save over the first is a conflict shown in the page, nothing is overwritten until the person chooses', async () => {
    const { tpl, tab: a } = await oneFieldEditor();
    const b = await signedInContext(browser, t, owner);
    await openEditor(b, t, tpl.id);
    await a.page.locator('.ed-field[data-field="Name"]').focus();
    await a.page.keyboard.press('Shift+ArrowRight');
    await waitSaved(a.page);
    await b.page.locator('.ed-field[data-field="Name"]').focus();
    await b.page.keyboard.press('Shift+ArrowDown');
    await b.page.locator('.ed-save[data-status="conflict"]').waitFor({ timeout: 20_000 });
    await b.page.getByRole('alert').filter({ hasText: 'Someone else saved this template' }).waitFor();
    await b.page.screenshot({ path: join(SHOTS, 'desktop-editor-conflict.png') });
    let area = await areaOf(tpl.id);
    expect([area.x, area.y]).toEqual([0.15, 0.1]);

    await b.page.getByRole('button', { name: 'Load their version' }).click();
    await waitSaved(b.page);
    await b.page.locator('.ed-field[data-field="Name"]').focus();
    await b.page.keyboard.press('Shift+ArrowDown');
    await waitSaved(b.page);
    area = await areaOf(tpl.id);
    expect([area.x, area.y]).toEqual([0.15, 0.15]);

    // Now A is behind: its change meets B's save; A keeps its own version on purpose.
    await a.page.locator('.ed-field[data-field="Name"]').focus();
    await a.page.keyboard.press('Shift+ArrowRight');
    await a.page.locator('.ed-save[data-status="conflict"]').waitFor({ timeout: 20_000 });
    await a.page.getByRole('button', { name: 'Keep mine (replace theirs)' }).click();
    await waitSaved(a.page);
    area = await areaOf(tpl.id);
    expect([area.x, area.y]).toEqual([0.2, 0.1]);
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.ctx.close();
    await b.ctx.close();
  }, 120_000);

  it('template.updated is emitted once per save, not per keystroke: typing a name and five arrow presses make two saves', async () => {
    const { tpl, tab, page } = await oneFieldEditor();
    const before = await updatedEvents(t, tpl.id);
    await page.getByLabel('Template name').fill('');
    await page.getByLabel('Template name').pressSequentially('Consulting agreement 2027', { delay: 15 });
    await waitSaved(page);
    expect(await updatedEvents(t, tpl.id)).toBe(before + 1);
    expect((await getTemplate(t, owner, tpl.id)).name).toBe('Consulting agreement 2027');
    await page.locator('.ed-field[data-field="Name"]').focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await waitSaved(page);
    expect(await updatedEvents(t, tpl.id)).toBe(before + 2);
    await tab.ctx.close();
  }, 120_000);

  it('roles: renamed, reordered and added in the editor, at most 10 (spec: Roles per template)', async () => {
    const { tpl, tab, page } = await oneFieldEditor();
    await page.getByLabel('Role 1 name').fill('Buyer');
    const add = page.getByRole('button', { name: 'Add role' });
    for (let i = 0; i < 9; i++) await add.click();
    expect(await add.isDisabled()).toBe(true);
    await page.getByText('A template has at most 10 roles.').waitFor();
    await page.getByLabel('Role 2 name').fill('Seller');
    await page.getByRole('button', { name: 'Move Seller up' }).click();
    await waitSaved(page);
    const saved = await getTemplate(t, owner, tpl.id);
    expect(saved.roles).toHaveLength(10);
    expect(saved.roles.slice(0, 2)).toEqual(['Seller', 'Buyer']);
    // The field followed its role through the rename and kept it through the reorder.
    expect(saved.fields[0]!.role).toBe('Buyer');
    await page.screenshot({ path: join(SHOTS, 'desktop-editor-roles.png') });
    await tab.ctx.close();
  }, 120_000);

  it('a 200-page document opens and scrolls without loading every page image at once', async () => {
    const tpl = await createTemplate(t, owner, await plainPdf(200));
    const tab = await signedInContext(browser, t, owner);
    await openEditor(tab, t, tpl.id);
    const { page } = tab;
    expect(await page.locator('.ed-page').count()).toBe(200);
    await page.waitForTimeout(1500);
    const atStart = tab.images.length;
    expect(atStart).toBeGreaterThan(0);
    expect(atStart).toBeLessThanOrEqual(6);
    await page.locator('.ed-pages').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect
      .poll(() => tab.images.some((u) => u.endsWith('-page-200.png')), { timeout: 20_000 })
      .toBe(true);
    await page.waitForTimeout(1000);
    // The first pages and the last few: nothing in between was fetched on the way down.
    expect(tab.images.length).toBeLessThanOrEqual(atStart + 6);
    expect(tab.images.some((u) => u.endsWith('-page-100.png'))).toBe(false);
    process.stdout.write(
      `200 pages: ${atStart} page images requested on open, ${tab.images.length} after scrolling to the end\n`,
    );
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByText('125%').waitFor();
    // Zooming keeps the end of the document in view.
    await expect
      .poll(async () => {
        const last = await page.locator('.ed-page[data-page$=":200"]').boundingBox();
        return last !== null && last.y < DESKTOP.height && last.y + last.height > 60;
      })
      .toBe(true);
    await page
      .locator('.ed-page[data-page$=":200"]')
      .evaluate((el) => el.scrollIntoView({ block: 'start', inline: 'start' }));
    // The last pages may be waiting on the worker's prerender of all 200 pages (one parse, in page
    // order), which takes minutes on a loaded machine: generous.
    await imagesLoaded(page, 180_000);
    await page.screenshot({ path: join(SHOTS, 'desktop-editor-200-pages.png') });
    expect(tab.problems).toEqual([]);
    await tab.ctx.close();
  }, 300_000);

  it('preview: the signing page as the chosen role sees the template, with no request made and no credit used', async () => {
    const { tpl, tab, page } = await oneFieldEditor(DESKTOP, false, [
      {
        name: 'Countersign',
        type: 'signature',
        role: 'Agent',
        areas: [{ page: 2, x: 0.1, y: 0.5, w: 0.3, h: 0.06 }],
      },
    ]);
    const requests = () =>
      t.db.selectFrom('signature_requests').select('id').where('account_id', '=', owner.accountId).execute();
    const before = (await requests()).length;
    const credits = (await t.api('GET', 'credits', { key: owner.key })).body;
    await page.getByLabel('Preview as role').selectOption('Agent');
    const [preview] = await Promise.all([
      tab.ctx.waitForEvent('page'),
      page.getByRole('button', { name: 'Preview' }).click(),
    ]);
    await preview.getByText('Preview as Agent').waitFor({ timeout: 30_000 });
    await preview.locator('button.field').first().waitFor();
    expect(await preview.locator('button.field').count()).toBe(1);
    expect(await preview.getByRole('button', { name: 'Decline' }).count()).toBe(0);
    await preview.screenshot({ path: join(SHOTS, 'desktop-preview-agent.png') });
    expect((await requests()).length).toBe(before);
    expect((await t.api('GET', 'credits', { key: owner.key })).body).toEqual(credits);
    void tpl;
    await tab.ctx.close();
  }, 120_000);

  it('documents: reordered, added and removed in the editor; fields follow their document; a field gets a second area on another page', async () => {
    const { tpl, tab, page } = await oneFieldEditor();
    await page.locator('.ed-field[data-field="Name"]').click();
    await page.getByLabel('Also place on').selectOption({ label: 'contract, page 2 of 2' });
    await waitSaved(page);
    let saved = await getTemplate(t, owner, tpl.id);
    expect(saved.fields[0]!.areas.map((a) => a.page)).toEqual([1, 2]);

    await page.locator('input[type="file"]').setInputFiles({
      name: 'annex.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(await plainPdf(1, 'Annex')),
    });
    await page.getByRole('link', { name: /annex/ }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Move annex up' }).click();
    await waitSaved(page);
    saved = await getTemplate(t, owner, tpl.id);
    expect(saved.documents.map((d) => d.name)).toEqual(['annex', 'contract']);
    expect(saved.fields[0]!.areas.map((a) => a.document)).toEqual([1, 1]);

    await page.getByRole('button', { name: 'Remove contract' }).click();
    await waitSaved(page);
    saved = await getTemplate(t, owner, tpl.id);
    expect(saved.documents.map((d) => d.name)).toEqual(['annex']);
    expect(saved.fields).toEqual([]);
    expect(await page.getByRole('button', { name: 'Remove annex' }).isDisabled()).toBe(true);
    expect(tab.problems).toEqual([]);
    await tab.ctx.close();
  }, 180_000);

  it('only a role that may edit templates gets the editor: a viewer is told so, a signed-out visitor goes to sign-in and back (operations.md §5 roles)', async () => {
    const tpl = await createTemplate(t, owner, await plainPdf(1));
    const viewer = await createUser(t.db, {
      accountId: owner.accountId,
      email: `viewer-${tpl.id}@example.com`,
      role: 'viewer',
    });
    const tab = await signedInContext(browser, t, { userId: viewer.id });
    await tab.page.goto(`${t.baseUrl}/templates/${tpl.id}/edit`);
    await tab.page.getByText('You can look, not edit').waitFor();
    expect(await tab.page.locator('.ed-page').count()).toBe(0);
    await tab.ctx.close();
    const anon = await browser.newContext();
    const page = await anon.newPage();
    await page.goto(`${t.baseUrl}/templates/${tpl.id}/edit`);
    await page.waitForURL(/\/login\?next=%2Ftemplates%2F\d+%2Fedit/);
    await anon.close();
  }, 60_000);
});
