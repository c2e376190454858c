import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobHandlers, producedFiles, startWorker, type WorkerHandle } from '@esign/core';
import { FIELD_TYPES, type FieldType } from '@esign/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { plainPdf } from '../../../test/pdfs.ts';
import { tokenOf, trpc } from '../../../test/signing.ts';
import { signaturePng, wordBoxes } from '../../../packages/pdf/test/seal-helpers.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';
import {
  createTemplate,
  getTemplate,
  openEditor,
  signedInContext,
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
  date: ['2026-03-04'],
  number: ['4242'],
  phone: ['+15550100'],
  select: ['Green'],
  radio: ['South'],
  multiple: ['Xray', 'Zulu'],
  cells: ['A', 'B', 'C', 'ABC'],
};
const INK: Partial<Record<FieldType, number>> = { signature: 0.02, initials: 0.02, image: 0.02, stamp: 0.02, checkbox: 0.004 };

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
  await page.mouse.move(b.x + (p.box.x + p.box.w) * b.width, b.y + (p.box.y + p.box.h) * b.height, { steps: 4 });
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
    t.db.selectFrom('signature_requests').selectAll().where('id', '=', sent.body.id).executeTakeFirstOrThrow();
  await expect.poll(async () => (await row()).sealing_status, { timeout: 120_000, interval: 500 }).toBe('done');
  const doc = producedFiles((await row()).documents).find((f) => f.kind === 'document')!;
  const file = join(mkdtempSync(join(tmpdir(), 'esign-editor-sealed-')), 'sealed.pdf');
  writeFileSync(file, await t.rt.deps.storage.get(doc.storage_key));
  return file;
}

/** Share of dark pixels inside a box of a page rendered at 72 dpi (one pixel per point). */
function inkIn(file: string, pageNumber: number, box: { x: number; y: number; w: number; h: number }): number {
  const out = join(mkdtempSync(join(tmpdir(), 'esign-editor-ink-')), 'p');
  execFileSync('pdftoppm', ['-gray', '-r', '72', '-f', String(pageNumber), '-l', String(pageNumber), '-singlefile', file, out]);
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
      for (const k of ['x', 'y', 'w', 'h'] as const) expect(Math.abs(a[k] - p.box[k]), `${p.type}.${k}`).toBeLessThan(0.004);
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
      const rect = { x0: p.box.x * 612, y0: p.box.y * 792, x1: (p.box.x + p.box.w) * 612, y1: (p.box.y + p.box.h) * 792 };
      for (const w of words) {
        expect(w.xMin, `${p.type} left`).toBeGreaterThanOrEqual(rect.x0 - 1);
        expect(w.xMax, `${p.type} right`).toBeLessThanOrEqual(rect.x1 + 1);
        expect(w.yMin, `${p.type} top`).toBeGreaterThanOrEqual(rect.y0 - 1);
        expect(w.yMax, `${p.type} bottom`).toBeLessThanOrEqual(rect.y1 + 1);
      }
    }
    for (const p of plan.filter((x) => x.picture)) expect(inkIn(sealed, p.page, p.box), `${p.type} ink`).toBeGreaterThan(0.02);
  }, 300_000);
});
