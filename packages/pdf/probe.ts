import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { combineInPool, configureDocumentPool, sealInPool } from './src/ingest/index.ts';
const pdf = new Uint8Array(readFileSync('../../bench/out/large-text.pdf'));
configureDocumentPool({ maxHeapMb: Number(process.argv[2]), timeoutMs: 600_000 });
let peak = 0;
const iv = setInterval(() => {
  try { for (const c of readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) { const s = readFileSync(`/proc/${c}/status`, 'utf8'); peak = Math.max(peak, Number(/VmRSS:\s+(\d+)/.exec(s)![1])); } } catch {}
}, 10);
const t = performance.now();
const values = [{ type: 'text', areas: [{ page: 1, x: 0.1, y: 0.85, w: 0.3, h: 0.04 }], value: 'Jane' }, { type: 'text', areas: [{ page: 5000, x: 0.5, y: 0.85, w: 0.3, h: 0.06 }], value: 'Jane Signer' }];
const identity = { dataDir: mkdtempSync(join(tmpdir(), 'seal-probe-')) };
const sealed = await sealInPool(pdf, { values: values as never, identity, name: 'x' });
peak = 0;
const r = await combineInPool([sealed.pdf, sealed.pdf.slice(0, 0).length ? sealed.pdf : new Uint8Array(readFileSync('../../bench/out/large-text.pdf')).subarray(0, 0)].filter((b) => b.length), identity, 'c').then((pdf) => ({ pdf })).catch((e) => e);
clearInterval(iv);
console.log(process.argv[2], r.pdf?.length ?? r.message, Math.round(performance.now() - t), 'ms', Math.round(peak / 1024), 'MB seal worker peak');
process.exit(0);
