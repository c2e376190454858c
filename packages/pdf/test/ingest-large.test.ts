import { describe, expect, it } from 'vitest';
import { ingestDocument } from '../src/ingest/index.ts';
import { makeLargePdf } from './ingest-fixtures.ts';

describe('large documents (spec Limits: document size 25 MB)', () => {
  it('ingests a 200-page, ~25 MB PDF with images in seconds without holding many copies', {
    timeout: 60_000,
  }, async () => {
    const input = await makeLargePdf(200);
    expect(input.length).toBeGreaterThan(20_000_000);
    expect(input.length).toBeLessThan(26_214_400);

    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const started = performance.now();
    const doc = await ingestDocument({ bytes: input });
    const ms = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    expect(doc.pages).toHaveLength(200);
    const sig = doc.fields.find((f) => f.name === 'Signature')!;
    expect(sig.areas.map((a) => a.page)).toEqual(Array.from({ length: 20 }, (_, i) => i * 10 + 1));
    // Tags removed means a rewritten file of about the same size.
    expect(Math.abs(doc.pdf.length - input.length)).toBeLessThan(input.length * 0.05);
    const mb = (n: number) => Math.round(n / 1e6);
    console.log(
      `ingest: ${mb(input.length)} MB, 200 pages: ${Math.round(ms)} ms (worker start included), ` +
        `process RSS ${mb(baseline)} → peak ${mb(peak)} MB (+${mb(peak - baseline)} MB)`,
    );
    // Generous bounds for a shared 2-core machine; typical values are far lower (see the log).
    expect(ms).toBeLessThan(20_000);
    expect(peak - baseline).toBeLessThan(700_000_000);
  });
});
