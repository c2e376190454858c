import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// `npm start` gives the service's processes the malloc and V8 settings of scripts/memory.env (README,
// scaled set-up; bench/README.md, Large documents), unless the environment already sets them.

const ROOT = join(import.meta.dirname, '..');
const runSh = readFileSync(join(ROOT, 'scripts/run.sh'), 'utf8');
const memoryEnv = readFileSync(join(ROOT, 'scripts/memory.env'), 'utf8');
const expected = Object.fromEntries(
  memoryEnv
    .split('\n')
    .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
    .filter((m) => m !== null)
    .map((m) => [m[1]!, m[2]!]),
);

/** Runs run.sh's memory_env in bash with `env` and prints the variables of memory.env it leaves. */
function exported(env: Record<string, string>): Record<string, string> {
  const fn = /^memory_env\(\) \{[\s\S]*?^\}$/m.exec(runSh)?.[0];
  expect(fn, 'scripts/run.sh defines memory_env').toBeTruthy();
  const out = execFileSync('bash', ['-c', `${fn}\nmemory_env\nenv`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
  });
  return Object.fromEntries(
    out
      .split('\n')
      .filter((l) => l.startsWith('MALLOC_') || l.startsWith('NODE_OPTIONS='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

describe('npm start exports scripts/memory.env', () => {
  it('the three glibc settings and the young generation cap, and only for `start`', () => {
    expect(Object.keys(expected).sort()).toEqual([
      'MALLOC_ARENA_MAX',
      'MALLOC_MMAP_THRESHOLD_',
      'MALLOC_TRIM_THRESHOLD_',
      'NODE_OPTIONS',
    ]);
    expect(expected.NODE_OPTIONS).toBe('--max-semi-space-size=16');
    expect(exported({})).toEqual(expected);
    expect(runSh).toMatch(/start\) memory_env; exec node apps\/server\/src\/supervisor.ts/);
  });

  it("an operator's own value is kept", () => {
    expect(exported({ MALLOC_ARENA_MAX: '8' })).toEqual({ ...expected, MALLOC_ARENA_MAX: '8' });
    expect(exported({ NODE_OPTIONS: '--enable-source-maps' })).toEqual({
      ...expected,
      NODE_OPTIONS: '--enable-source-maps',
    });
  });
});
