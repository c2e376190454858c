// `pnpm bench [sealing|templates|webhooks] [options of that benchmark]`: runs the benchmarks of
// bench/README.md one after the other (all of them when none is named), each in its own process
// started the way its section says, and stops at the first that fails.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const tsx = ['--import', 'tsx'];

/** Each benchmark's node arguments (templates needs --expose-gc to measure memory). */
const BENCHES = {
  'large-documents': [...tsx, 'bench/large-documents.ts'],
  sealing: [...tsx, 'bench/sealing.ts'],
  templates: ['--expose-gc', ...tsx, 'bench/templates.ts'],
  webhooks: [...tsx, 'bench/webhooks.ts'],
} satisfies Record<string, string[]>;
type Bench = keyof typeof BENCHES;

const isBench = (name: string | undefined): name is Bench => !!name && Object.hasOwn(BENCHES, name);

const [first, ...rest] = process.argv.slice(2);
if (first !== undefined && !isBench(first)) {
  console.error(`Unknown benchmark "${first}"; expected one of ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
// Options go to the one benchmark named; running them all takes none.
const plan: [Bench, string[]][] = isBench(first)
  ? [[first, rest]]
  : (Object.keys(BENCHES) as Bench[]).map((name) => [name, []]);

for (const [name, args] of plan) {
  console.log(`\n=== bench/${name}.ts ===`);
  const run = spawnSync(process.execPath, [...BENCHES[name], ...args], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`bench/${name}.ts failed (${run.signal ?? `exit ${run.status}`})`);
    process.exit(run.status ?? 1);
  }
}
