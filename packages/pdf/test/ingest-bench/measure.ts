/**
 * Measures ingest of a large PDF in a fresh process (peak RSS is process-wide, so generation
 * and measurement run separately):
 *
 *   pnpm exec tsx packages/pdf/test/ingest-bench/measure.ts generate /tmp/large.pdf
 *   pnpm exec tsx packages/pdf/test/ingest-bench/measure.ts run /tmp/large.pdf [--in-process]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { ingestDocument } from '../../src/ingest/index.ts';
import { makeLargePdf } from '../ingest-fixtures.ts';

const [command, path = '/tmp/esign-large.pdf', flag] = process.argv.slice(2);
const mb = (n: number) => (n / 1e6).toFixed(1);
const say = (line: string) => process.stdout.write(`${line}\n`);

if (command === 'generate') {
  const pdf = await makeLargePdf(200);
  await writeFile(path, pdf);
  say(`wrote ${path}: ${mb(pdf.length)} MB, 200 pages`);
} else if (command === 'run') {
  const bytes = new Uint8Array(await readFile(path));
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const isolate = flag !== '--in-process';
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const doc = await ingestDocument({ bytes, isolate });
    runs.push(performance.now() - t);
    if (i === 0)
      say(
        `pages ${doc.pages.length}, fields ${doc.fields.length}, output ${mb(doc.pdf.length)} MB, warnings ${doc.warnings.length}`,
      );
  }
  clearInterval(sampler);
  const maxRss = process.resourceUsage().maxRSS * 1024;
  say(
    `${isolate ? 'worker thread' : 'in process'}: input ${mb(bytes.length)} MB; ` +
      `times ${runs.map((r) => `${Math.round(r)} ms`).join(', ')} (first includes worker start); ` +
      `RSS before ${mb(before)} MB, sampled peak ${mb(peak)} MB, process max RSS ${mb(maxRss)} MB`,
  );
} else {
  say('usage: measure.ts generate|run <path> [--in-process]');
}
