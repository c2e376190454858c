import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildCorpus } from '../../corpus/corpus.ts';

// Writes this service's own seals of the issue-30 contract (page 1 says "Fee: EUR 4,000" at
// x 60, y 700) at B-B and B-LTA, sealed by sealDocument with the corpus identity and its
// in-process TSA, into the folder given (default /tmp/outside-work), for ours.py to modify with
// pyHanko. Run from the repository root: pnpm exec tsx packages/pdf/test/outside/make/esign-seals.ts [dir]

const dir = process.argv[2] ?? '/tmp/outside-work';
mkdirSync(dir, { recursive: true });
const corpus = await buildCorpus();
for (const base of corpus.bases.filter((b) => b.template === 'contract')) {
  const file = path.join(dir, `esign-${base.level}.pdf`);
  writeFileSync(file, base.bytes);
  process.stdout.write(`${file}: ${base.bytes.length} bytes, signed revision ends at ${base.signedEnd}\n`);
}
