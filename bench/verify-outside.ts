// `node bench/verify-outside.ts [--runs N]`: the verifier's time per file (inspectSignatures, what
// POST /documents/verify runs) over the outside corpus of issue 40 (packages/pdf/test/outside) and
// the issue-30 attack corpus (packages/pdf/test/corpus buildCorpus), one process, files one at a
// time. Each file is verified once to warm up, then N times (default 5); its time is the median of
// those. Prints a table of every file (pages, revisions, median) and, per corpus and overall, the
// median and p95 of the per-file times.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { inspectSignatures } from '../packages/pdf/src/seal/index.ts';
import { buildCorpus, sealTemplate } from '../packages/pdf/test/corpus/corpus.ts';
import { appendUpdate, trailerOf } from '../packages/pdf/test/corpus/update.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);
const OUTSIDE = path.join(import.meta.dirname, '../packages/pdf/test/outside');

interface Row {
  corpus: string;
  name: string;
  bytes: Uint8Array;
}

/** Pages as poppler counts them (pdfinfo), null when it cannot read the file. */
function pagesOf(bytes: Uint8Array): number | null {
  try {
    const info = execFileSync('pdfinfo', ['-'], {
      input: bytes,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? Number.NaN);
  } catch {
    return null;
  }
}

/** Revisions: the file's `%%EOF` markers (each incremental update ends with one). */
const revisionsOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1').match(/%%EOF/g)?.length ?? 0;

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? Number.NaN;
}

const manifest = JSON.parse(readFileSync(path.join(OUTSIDE, 'manifest.json'), 'utf8')) as { file: string }[];
const rows: Row[] = manifest.map((e) => ({
  corpus: 'outside',
  name: e.file,
  bytes: new Uint8Array(readFileSync(path.join(OUTSIDE, 'files', e.file))),
}));
const corpus = await buildCorpus();
for (const c of corpus.cases) rows.push({ corpus: 'issue 30', name: c.name, bytes: c.bytes });

/** A 20-page contract of 45 lines a page (~3,000 glyphs a page), as the bound speaks of. */
async function denseContract(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 45; line++)
      page.drawText(
        `${p + 1}.${line + 1} The parties agree that clause ${line + 1} applies to every order placed.`,
        {
          x: 40,
          y: 800 - line * 17,
          size: 10,
          font,
        },
      );
  }
  return doc.save();
}

// Issue 40: "verify stays under 2 s at p95 on files up to 20 pages". The B-LTA seals are the
// worst legitimate case: three revisions follow the seal, so every check runs, the rendering
// guard (pdf.js draws all 20 pages of both revisions) included.
const dense = await denseContract(20);
for (const level of ['B-B', 'B-LTA'] as const) {
  const base = await sealTemplate(dense, 'dense', level, corpus.identity, corpus.tsa);
  rows.push({ corpus: '20 pages', name: `20-page seal ${level}`, bytes: base.bytes });
  const { size } = trailerOf(base.bytes);
  const note = `<< /Type /Annot /Subtype /FreeText /Rect [50 50 300 80] /Contents (EUR 40,000) /DA (/Helv 12 Tf 0 g) >>`;
  rows.push({
    corpus: '20 pages',
    name: `20-page seal ${level} + an update appending an object no page uses`,
    bytes: appendUpdate(base.bytes, { objects: [{ num: size, body: note }] }),
  });
}

const results: { row: Row; pages: number | null; revisions: number; ms: number }[] = [];
for (const row of rows) {
  await inspectSignatures(row.bytes);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await inspectSignatures(row.bytes);
    times.push(performance.now() - t0);
  }
  results.push({ row, pages: pagesOf(row.bytes), revisions: revisionsOf(row.bytes), ms: median(times) });
}

console.log(`| corpus | file | KB | pages | revisions | median ms |`);
console.log(`| --- | --- | ---: | ---: | ---: | ---: |`);
for (const r of results)
  console.log(
    `| ${r.row.corpus} | ${r.row.name} | ${(r.row.bytes.length / 1024).toFixed(0)} | ${r.pages ?? '–'} | ${r.revisions} | ${r.ms.toFixed(1)} |`,
  );
console.log(`\n| files | n | median ms | p95 ms | max ms |`);
console.log(`| --- | ---: | ---: | ---: | ---: |`);
for (const name of ['outside', 'issue 30', '20 pages', 'all']) {
  const ms = results.filter((r) => name === 'all' || r.row.corpus === name).map((r) => r.ms);
  console.log(
    `| ${name} | ${ms.length} | ${median(ms).toFixed(1)} | ${quantile(ms, 0.95).toFixed(1)} | ${Math.max(...ms).toFixed(1)} |`,
  );
}
console.log(
  `\n${RUNS} runs a file after one warm-up; ${cpus().length} × ${cpus()[0]?.model}, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}, Node ${process.version}`,
);
