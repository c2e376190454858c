import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AnnotationFlags, degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  type AllowedArea,
  type GuardLimits,
  type GuardResult,
  guardDocumentsOpen,
  pdfjsView,
  renderingGuard,
} from '../src/verify/guard.ts';
import { appendUpdate, stream, trailerOf } from './corpus/update.ts';
import { requireTool, tempDir, writeTemp } from './seal-helpers.ts';
import { hexText, type PageObjects, pageObjects, rewritten, textPdf } from './verify-guard-fixtures.ts';

// Issue 40 item 4: the rendering guard, the verifier's last check before `intact`. The files are
// written by pdf-lib, rewritten by qpdf and MuPDF, and changed by byte-level incremental updates
// (corpus/update.ts), never by the product's own writer.

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * The guard, checking that it left no pdf.js document open whatever it answered. Its time limit
 * is a minute unless the test sets one: answers must not depend on the shared machine's load.
 */
async function guard(
  ...[signed, whole, allowed, limits]: Parameters<typeof renderingGuard>
): Promise<GuardResult> {
  const result = await renderingGuard(signed, whole, allowed, { timeMs: 60_000, ...limits });
  expect(guardDocumentsOpen()).toBe(0);
  return result;
}

/** Rewrites a file with a Debian tool (another object layout, same content). */
function rewriteWith(tool: 'qpdf' | 'mutool', pdf: Uint8Array): Uint8Array {
  requireTool(tool);
  const dir = tempDir('guard');
  const input = writeTemp(dir, 'in.pdf', pdf);
  const output = path.join(dir, 'out.pdf');
  if (tool === 'qpdf')
    execFileSync('qpdf', ['--object-streams=generate', '--compress-streams=n', input, output]);
  else execFileSync('mutool', ['clean', '-gg', '-d', input, output]);
  return new Uint8Array(readFileSync(output));
}

type Rect = [number, number, number, number];

/**
 * An update that adds an annotation painting `rect` black: a Square with flags `flags` (written
 * as given, so `2.0` is a real number), or with `as` a Widget, its /Rect written indirectly.
 */
function withAnnotation(
  base: Uint8Array,
  objs: PageObjects,
  rect: Rect,
  flags: number | string = 4,
  as: 'square' | 'indirect-rect widget' = 'square',
): Uint8Array {
  const { size } = trailerOf(base);
  const [w, h] = [rect[2] - rect[0], rect[3] - rect[1]];
  const kind = as === 'square' ? '/Subtype /Square /C [0 0 0]' : '/Subtype /Widget /FT /Sig /T (Stamp)';
  const rectValue = as === 'square' ? `[${rect.join(' ')}]` : `${size + 2} 0 R`;
  return appendUpdate(base, {
    objects: [
      { num: objs.page.num, body: objs.page.dict.replace(/>>\s*$/, `/Annots [${size} 0 R]\n>>`) },
      {
        num: size,
        body: `<< /Type /Annot ${kind} /Rect ${rectValue} /F ${flags} /AP << /N ${size + 1} 0 R >> >>`,
      },
      {
        num: size + 1,
        body: stream(`/Type /XObject /Subtype /Form /BBox [0 0 ${w} ${h}]`, `0 g 0 0 ${w} ${h} re f`),
      },
      ...(as === 'square' ? [] : [{ num: size + 2, body: `[${rect.join(' ')}]` }]),
    ],
  });
}

/** An update that replaces the page's first content stream with `data` (written uncompressed). */
const withContent = (base: Uint8Array, objs: PageObjects, data: string) =>
  appendUpdate(base, { objects: [{ num: objs.content.num, body: stream('', data) }] });

/** The fee line of textPdf, on every page: "The fee is 100 EUR" at (72, 700), 12 pt. */
const FEE: Rect = [70, 695, 190, 715];

describe('renderingGuard', async () => {
  const base = await textPdf(3, 10);
  const page1 = await pageObjects(base, 0);
  const page2 = await pageObjects(base, 1);

  it('issue 40 item 4: identical revisions, however the objects are laid out, are the same', async () => {
    const noop = appendUpdate(base, {
      objects: [{ num: trailerOf(base).size, body: '<< /Producer (x) >>' }],
    });
    expect(await guard(base, base, [])).toEqual({ status: 'same', pagesCompared: 3 });
    expect(await guard(base, noop, [])).toEqual({ status: 'same', pagesCompared: 3 });
    expect(await guard(base, await rewritten(base), [])).toEqual({ status: 'same', pagesCompared: 3 });
    expect(await guard(base, rewriteWith('qpdf', base), [])).toEqual({ status: 'same', pagesCompared: 3 });
    expect(await guard(base, rewriteWith('mutool', base), [])).toEqual({ status: 'same', pagesCompared: 3 });
  });

  it('issue 40 item 4: a changed word on page 2 differs in its text, on page 2', async () => {
    const data = page2.content.data.replace(hexText('The fee is 100 EUR'), hexText('The fee is 900 EUR'));
    expect(data).not.toBe(page2.content.data);
    const result = await guard(base, withContent(base, page2, data), []);
    expect(result).toMatchObject({ status: 'differs', page: 2, what: 'text' });
    expect(result.status === 'differs' && result.detail).toContain('The fee is 900 EUR');
  });

  it('issue 40 item 4: a white rectangle over text (the text still extracted) differs in its rendering', async () => {
    const whole = withContent(base, page1, `${page1.content.data}\nq 1 1 1 rg 70 695 120 16 re f Q\n`);
    const result = await guard(base, whole, []);
    expect(result).toMatchObject({ status: 'differs', page: 1, what: 'rendering' });
  });

  it('issue 40 item 4: a new annotation drawn over the text differs in its rendering', async () => {
    const result = await guard(base, withAnnotation(base, page1, FEE), []);
    expect(result).toMatchObject({ status: 'differs', page: 1, what: 'rendering' });
  });

  it('issue 40 item 4: a change inside an allowed area is the same; 1 pt past it differs', async () => {
    const whole = withAnnotation(base, page2, FEE);
    expect(await guard(base, whole, [{ page: 2, rect: FEE }])).toEqual({ status: 'same', pagesCompared: 3 });
    // Neither does an area of another page, nor one that is not four finite numbers.
    expect(await guard(base, whole, [{ page: 2, rect: [70, 695, Infinity, 715] }])).toMatchObject({
      status: 'differs',
      page: 2,
    });
    expect(await guard(base, whole, [{ page: 1, rect: FEE }])).toMatchObject({ status: 'differs', page: 2 });
    for (const rect of [
      [FEE[0] + 1, FEE[1], FEE[2], FEE[3]],
      [FEE[0], FEE[1], FEE[2] - 1, FEE[3]],
      [FEE[0], FEE[1] + 1, FEE[2], FEE[3]],
      [FEE[0], FEE[1], FEE[2], FEE[3] - 1],
    ] as Rect[]) {
      const result = await guard(base, whole, [{ page: 2, rect }]);
      expect(result, `allowed ${rect.join(' ')}`).toMatchObject({
        status: 'differs',
        page: 2,
        what: 'rendering',
      });
    }
  });

  it('issue 40 item 4: allowed areas are in default user space, also on a rotated page', async () => {
    for (const rotate of [90, 270]) {
      const turned = await textPdf(1, 10, rotate);
      const whole = withAnnotation(turned, await pageObjects(turned, 0), FEE);
      expect(await guard(turned, whole, [{ page: 1, rect: FEE }])).toEqual({
        status: 'same',
        pagesCompared: 1,
      });
      const short: Rect = [FEE[0], FEE[1], FEE[2] - 1, FEE[3]];
      expect(await guard(turned, whole, [{ page: 1, rect: short }])).toMatchObject({
        status: 'differs',
        what: 'rendering',
      });
    }
  });

  it('issue 40 item 4: text drawn inside an allowed area is the same; outside it differs', async () => {
    const line = (x: number, y: number) =>
      `${page1.content.data}\nq BT 0 g /${fontOf(page1.content.data)} 10 Tf ${x} ${y} Td <${hexText('Signed by B')}> Tj ET Q\n`;
    const area: Rect = [300, 100, 420, 130];
    expect(await guard(base, withContent(base, page1, line(305, 110)), [{ page: 1, rect: area }])).toEqual({
      status: 'same',
      pagesCompared: 3,
    });
    const outside = await guard(base, withContent(base, page1, line(305, 140)), [{ page: 1, rect: area }]);
    expect(outside).toMatchObject({ status: 'differs', page: 1, what: 'text' });
  });

  it('issue 40 item 4: a widget whose /Rect is a reference, drawn over the fee, differs', async () => {
    // Issue 40's timestamp family: a /Rect given as a reference read as zero-size by revisions.ts.
    const widget = withAnnotation(base, page1, FEE, 4, 'indirect-rect widget');
    expect(await guard(base, widget, [])).toMatchObject({ status: 'differs', page: 1, what: 'rendering' });
  });

  it('issue 40 item 4: pdf.js reads /F 2.0 as hidden, so the guard cannot see it (item 2 must)', async () => {
    // Poppler draws such an annotation (pdftoppm: 198 black pixels at 20 dpi where /F 2 gives
    // none); pdf.js and MuPDF read 2.0 as 2, hidden. A real-valued /F is a reader difference the
    // analysis has to refuse (issue 40 items 1 and 2): the guard is no help there.
    const real = withAnnotation(base, page1, FEE, '2.0');
    expect(await guard(base, real, [])).toEqual({ status: 'same', pagesCompared: 3 });
    const view = await pdfjsView(real);
    expect(view!.pages[0]!.annotations).toEqual([
      expect.objectContaining({ subtype: 'Square', hidden: true }),
    ]);
  });

  it('issue 40 item 4: a hidden (/F 2) or NoView (/F 32) annotation is not seen, so the same', async () => {
    expect(await guard(base, withAnnotation(base, page1, FEE, 2), [])).toEqual({
      status: 'same',
      pagesCompared: 3,
    });
    expect(await guard(base, withAnnotation(base, page1, FEE, 32), [])).toEqual({
      status: 'same',
      pagesCompared: 3,
    });
  });

  it('issue 40 item 4: pages added differ in their pages, at the first new page', async () => {
    const result = await guard(base, await textPdf(4, 10), []);
    expect(result).toMatchObject({ status: 'differs', page: 4, what: 'pages' });
  });

  it('issue 40 item 4: a rotation inherited from the page tree root differs in its pages', async () => {
    expect(page1.page.dict).not.toContain('/Rotate');
    const rotated = page1.pages.dict.replace(/>>\s*$/, '/Rotate 90\n>>');
    const whole = appendUpdate(base, { objects: [{ num: page1.pages.num, body: rotated }] });
    const result = await guard(base, whole, []);
    expect(result).toMatchObject({ status: 'differs', page: 1, what: 'pages' });
    expect(result.status === 'differs' && result.detail).toContain('rotation 90');
  });

  it('issue 40 item 4: an encrypted whole file (pdf.js asks for a password) is unreadable', async () => {
    // /Encrypt added to the trailer by an update: no reader can open the file.
    const { size } = trailerOf(base);
    const hex32 = (c: string) => c.repeat(64);
    const forged = appendUpdate(base, {
      objects: [
        {
          num: size,
          body: `<< /Filter /Standard /V 2 /R 3 /Length 128 /O <${hex32('a')}> /U <${hex32('b')}> /P -4 >>`,
        },
      ],
      trailerExtra: `/Encrypt ${size} 0 R /ID [<${hex32('c')}> <${hex32('c')}>]`,
    });
    expect(await guard(base, forged, [])).toMatchObject({ status: 'differs', page: 0, what: 'unreadable' });

    requireTool('qpdf');
    const dir = tempDir('guard');
    const output = path.join(dir, 'locked.pdf');
    execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', writeTemp(dir, 'in.pdf', base), output]);
    const locked = new Uint8Array(readFileSync(output));
    const result = await guard(base, locked, []);
    expect(result).toMatchObject({ status: 'differs', page: 0, what: 'unreadable' });
    expect(result.status === 'differs' && result.detail).toContain('password');
    expect(await guard(base, new TextEncoder().encode('not a PDF at all'), [])).toMatchObject({
      status: 'differs',
      what: 'unreadable',
    });
  });

  it('issue 40 item 4: a page tree entry that is not a page is a missing page for pdf.js: differs in pages', async () => {
    const { size } = trailerOf(base);
    const kids = /\/Kids \[([^\]]*)\]/
      .exec(page1.pages.dict)![1]!
      .trim()
      .split(/\s+(?=\d+ \d+ R)/);
    expect(kids).toHaveLength(3);
    const broken = page1.pages.dict.replace(/\/Kids \[[^\]]*\]/, `/Kids [${kids[0]} ${size} 0 R ${kids[2]}]`);
    const whole = appendUpdate(base, {
      objects: [
        { num: page1.pages.num, body: broken },
        { num: size, body: '(not a page)' },
      ],
    });
    const result = await guard(base, whole, []);
    // pdf.js drops the entry (2 pages where /Count says 3): the file's last page is "new".
    expect(result).toMatchObject({ status: 'differs', page: 3, what: 'pages' });
  });

  it('issue 40 item 4: a 212-page file is skipped after maxPages pages, saying so', async () => {
    const long = await textPdf(212, 1);
    expect(await guard(long, long, [])).toEqual({
      status: 'skipped',
      pagesCompared: 50,
      reason: 'the file has 212 pages; the first 50 were compared',
    });
    // A changed page past the limit is not seen: the answer says the guard was skipped.
    expect(await guard(long, long, [], { maxPages: 3 })).toMatchObject({ pagesCompared: 3 });
  });

  it('issue 40 item 4: over timeMs the guard stops and says where', async () => {
    expect(await guard(base, base, [], { timeMs: 1 })).toEqual({
      status: 'skipped',
      pagesCompared: 0,
      reason: 'stopped after 0.001 s at page 1',
    });
  });

  it('issue 40 item 4: a page that takes long to draw stops the guard at its time limit', async () => {
    const heavy = withContent(
      base,
      page1,
      `${page1.content.data}\n${'0 0 m 500 700 l 10 0 l h f\n'.repeat(40_000)}`,
    );
    const started = performance.now();
    const result = await guard(base, heavy, [], { timeMs: 300 });
    console.log(`40,000 paths, timeMs 300: answered after ${Math.round(performance.now() - started)} ms`);
    expect(result).toMatchObject({ status: 'skipped', pagesCompared: 0 });
    expect(result.status === 'skipped' && result.reason).toMatch(
      /^stopped after 0\.3 s (opening the files|at page 1)$/,
    );
  });

  it('issue 40 item 4: a 20-page text PDF is guarded in under 1.5 s of CPU (measured)', async () => {
    const signed = await textPdf(20, 30);
    const whole = await rewritten(signed);
    await guard(signed, whole, [], { timeMs: 60_000 }); // pdf.js and its fonts loaded
    const runs: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const [w, c] = [performance.now(), cpuMs()];
      expect(await guard(signed, whole, [], { timeMs: 60_000 })).toEqual({
        status: 'same',
        pagesCompared: 20,
      });
      runs.push({ wall: Math.round(performance.now() - w), cpu: Math.round(cpuMs() - c) });
    }
    console.log('guard, 20 pages of 31 text lines:', runs);
    // A later signature's widget allowed on page 1: that page's band is drawn again at 216 dpi.
    const [w, c] = [performance.now(), cpuMs()];
    const allowed = [{ page: 1, rect: [350, 60, 550, 120] as Rect }];
    expect(await guard(signed, whole, allowed)).toEqual({ status: 'same', pagesCompared: 20 });
    console.log('with an allowed area on page 1:', {
      wall: Math.round(performance.now() - w),
      cpu: Math.round(cpuMs() - c),
    });
    // CPU time, not wall time: the machine is shared. The default limit is 1.5 s of wall time.
    expect(Math.min(...runs.map((r) => r.cpu))).toBeLessThan(1500);
  });

  it('issue 40 item 4: 250 guard calls destroy every pdf.js document and memory stops growing', async () => {
    setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as () => void;
    /** After a full collection and the native finalizers it schedules (canvases, pdf.js buffers). */
    const memory = async () => {
      for (let i = 0; i < 2; i++) {
        gc();
        await new Promise(setImmediate);
      }
      const { rss, heapUsed } = process.memoryUsage();
      return { rss: rss / 2 ** 20, heap: heapUsed / 2 ** 20 };
    };
    const small = await textPdf(1, 5);
    const changed = withAnnotation(small, await pageObjects(small, 0), FEE);
    const locked = appendUpdate(small, {
      objects: [
        {
          num: 90,
          body: `<< /Filter /Standard /V 2 /R 3 /O <${'a'.repeat(64)}> /U <${'b'.repeat(64)}> /P -4 >>`,
        },
      ],
      trailerExtra: '/Encrypt 90 0 R',
    });
    // Every path: same, differs, unreadable, skipped (over time before and while drawing).
    const cases: [Uint8Array, AllowedArea[], Partial<GuardLimits>][] = [
      [small, [], {}],
      [changed, [], {}],
      [changed, [{ page: 1, rect: FEE }], {}],
      [locked, [], {}],
      [small, [], { timeMs: 0 }],
    ];
    const marks: { rss: number; heap: number }[] = [];
    for (let i = 1; i <= 250; i++) {
      const [whole, allowed, limits] = cases[i % cases.length]!;
      await guard(small, whole, allowed, limits);
      if (i === 150 || i === 250) marks.push(await memory());
    }
    const [warm, last] = marks as [(typeof marks)[0], (typeof marks)[0]];
    console.log('MiB after 150 and 250 guard calls:', marks);
    // Measured: the resident size grows over the first ~150 calls (the allocator keeps what
    // canvases and pdf.js freed), then by 2 to 23 MiB over the next 100; an undestroyed document
    // or an unfreed canvas adds ~1 MiB a call, 100 MiB here.
    expect(last.heap - warm.heap).toBeLessThan(10);
    expect(last.rss - warm.rss).toBeLessThan(60);
  }, 300_000);
});

/** The name pdf-lib gave the Helvetica font in the page's resources. */
function fontOf(content: string): string {
  const name = /\/(Helvetica-\d+) 10 Tf/.exec(content)?.[1];
  if (!name) throw new Error('no font found');
  return name;
}

describe('pdfjsView', () => {
  it('issue 40 item 1: pdf.js reports the pages, widgets with their field and flags, and the form values', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    page.setRotation(degrees(90));
    const form = doc.getForm();
    const name = form.createTextField('name');
    name.setText('Ada');
    name.addToPage(page, { x: 72, y: 600, width: 200, height: 20, font });
    const agree = form.createCheckBox('agree');
    agree.addToPage(page, { x: 72, y: 560, width: 12, height: 12 });
    agree.check();
    const secret = form.createTextField('secret');
    secret.setText('hidden value');
    secret.addToPage(page, { x: 72, y: 520, width: 200, height: 20, font });
    secret.acroField.getWidgets()[0]!.setFlagTo(AnnotationFlags.Hidden, true);
    const noView = form.createTextField('noview');
    noView.addToPage(page, { x: 72, y: 480, width: 200, height: 20, font });
    noView.acroField.getWidgets()[0]!.setFlagTo(AnnotationFlags.NoView, true);
    const view = await pdfjsView(await doc.save());
    expect(guardDocumentsOpen()).toBe(0);
    expect(view).not.toBeNull();
    expect(view!.numPages).toBe(1);
    expect(view!.encrypted).toBe(false);
    const [p] = view!.pages;
    expect(p).toMatchObject({ view: [0, 0, 612, 792], rotate: 90, userUnit: 1 });
    const byName = Object.fromEntries(p!.annotations.map((a) => [a.fieldName, a]));
    expect(byName.name).toMatchObject({ subtype: 'Widget', fieldType: 'Tx', hidden: false, noView: false });
    const written = name.acroField.getWidgets()[0]!.getRectangle();
    expect(byName.name!.rect).toEqual([
      written.x,
      written.y,
      written.x + written.width,
      written.y + written.height,
    ]);
    expect(byName.agree).toMatchObject({ subtype: 'Widget', fieldType: 'Btn', hasAppearance: true });
    // Hidden and NoView widgets are listed too, with their flags.
    expect(byName.secret).toMatchObject({ hidden: true, noView: false });
    expect(byName.noview).toMatchObject({ hidden: false, noView: true });
    expect(Object.keys(view!.fields!).sort()).toEqual(['agree', 'name', 'noview', 'secret']);
    // pdf-lib writes a field and its widget as two objects: pdf.js lists both under the name.
    expect(view!.fields!.name).toContainEqual(expect.objectContaining({ value: 'Ada', type: 'text' }));
    expect(view!.fields!.secret).toContainEqual(
      expect.objectContaining({ value: 'hidden value', hidden: true }),
    );
  });

  it('issue 40 item 1: a file without a form has no fields; one pdf.js cannot open is null', async () => {
    const plain = await textPdf(2, 1);
    const view = await pdfjsView(plain);
    expect(view).toMatchObject({ numPages: 2, fields: null, encrypted: false });
    expect(view!.pages.map((p) => p.annotations)).toEqual([[], []]);
    expect(await pdfjsView(new TextEncoder().encode('%PDF-1.7\nnothing'))).toBeNull();
    requireTool('qpdf');
    const dir = tempDir('guard');
    const input = writeTemp(dir, 'in.pdf', plain);
    const open = path.join(dir, 'open.pdf');
    const locked = path.join(dir, 'locked.pdf');
    execFileSync('qpdf', ['--encrypt', '', 'owner', '256', '--', input, open]);
    execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', input, locked]);
    expect(await pdfjsView(new Uint8Array(readFileSync(open)))).toMatchObject({
      numPages: 2,
      encrypted: true,
    });
    expect(await pdfjsView(new Uint8Array(readFileSync(locked)))).toBeNull();
    expect(guardDocumentsOpen()).toBe(0);
  });
});
