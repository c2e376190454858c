// Template creation (POST /templates through the whole pipeline: parse, tags, forms, storage, DB)
// against the floor of a plain pdf-lib load+save of the same file, in the same run.
// Run: pnpm exec tsx --expose-gc bench/templates.ts
import { PDFDocument } from 'pdf-lib';
import { benchApp, makePdf, measure } from './util.ts';

const app = await benchApp();
const cases: [string, () => Promise<Uint8Array>][] = [
  ['1 page', () => makePdf(1)],
  ['10 pages', () => makePdf(10)],
  ['100 pages', () => makePdf(100)],
  ['200 pages', () => makePdf(200)],
  ['25 MB, 200 pages', () => makePdf(200, { imageKb: 120 })],
];
const rows: string[] = [];
// Warm-up: the first document loads pdf.js and fonts; measure steady state.
await fetch(`${app.base}/api/v1/templates`, {
  method: 'POST',
  headers: { authorization: `Bearer ${app.key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ documents: [{ file: Buffer.from(await makePdf(1)).toString('base64') }] }),
});
for (const [name, make] of cases) {
  const pdf = await make();
  const floor = await measure(async () => (await PDFDocument.load(pdf, { updateMetadata: false })).save());
  const body = JSON.stringify({ name, documents: [{ file: Buffer.from(pdf).toString('base64') }] });
  const created = await measure(async () => {
    const res = await fetch(`${app.base}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.key}`, 'content-type': 'application/json' },
      body,
    });
    if (res.status !== 201) throw new Error(`${name}: ${res.status} ${await res.text()}`);
    return res.json();
  });
  rows.push(
    `| ${name} | ${(pdf.length / 1024 / 1024).toFixed(1)} MB | ${created.ms.toFixed(0)} ms | ${created.peakMb.toFixed(0)} MB | ${floor.ms.toFixed(0)} ms | ${floor.peakMb.toFixed(0)} MB |`,
  );
}
await app.close();
console.log('| input | size | POST /templates | peak RSS growth | pdf-lib load+save | peak RSS growth |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
