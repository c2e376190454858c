import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import DurationsReporter, { type FileDuration, formatSlowest, slowest } from './durations-reporter.ts';

/** What the reporter reads of a finished test file. */
function moduleOf(root: string, file: string, project: string, state = 'passed') {
  return {
    moduleId: join(root, file),
    project: { name: project },
    state: () => state,
    diagnostic: () => ({
      environmentSetupDuration: 1,
      prepareDuration: 2,
      setupDuration: 3,
      collectDuration: 40.4,
      duration: 500.6,
    }),
  } as unknown as TestModule;
}

const record = (file: string, wallMs: number): FileDuration => ({
  file,
  project: 'unit',
  result: 'passed',
  wallMs,
  startMs: 0,
  collectMs: 0,
  testsMs: wallMs,
});

describe('per-file durations (issue 43.4: every run says where its time goes)', () => {
  const root = mkdtempSync(join(tmpdir(), 'durations-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes each file’s wall time, start, project and result, and prints the slowest first', () => {
    let clock = 0;
    const printed: string[] = [];
    const reporter = new DurationsReporter({ root, print: (l) => printed.push(l), now: () => clock });
    const fast = moduleOf(root, 'a/fast.test.ts', 'unit');
    const slow = moduleOf(root, 'b/slow.int.test.ts', 'db:postgres', 'failed');
    const slowEmbedded = moduleOf(root, 'b/slow.int.test.ts', 'db:embedded');
    reporter.onTestRunStart();
    clock = 0;
    reporter.onTestModuleQueued(slow);
    clock = 300;
    reporter.onTestModuleQueued(fast);
    reporter.onTestModuleQueued(slowEmbedded);
    clock = 1_200;
    reporter.onTestModuleEnd(fast);
    clock = 2_000;
    reporter.onTestModuleEnd(slowEmbedded);
    clock = 61_500;
    reporter.onTestModuleEnd(slow);
    reporter.onTestRunEnd();

    const written = JSON.parse(readFileSync(join(root, 'test-results/durations.json'), 'utf8'));
    expect(written.files).toEqual([
      {
        file: 'b/slow.int.test.ts',
        project: 'db:postgres',
        result: 'failed',
        wallMs: 61_500,
        startMs: 0,
        collectMs: 40,
        testsMs: 501,
      },
      {
        file: 'b/slow.int.test.ts',
        project: 'db:embedded',
        result: 'passed',
        wallMs: 1_700,
        startMs: 300,
        collectMs: 40,
        testsMs: 501,
      },
      {
        file: 'a/fast.test.ts',
        project: 'unit',
        result: 'passed',
        wallMs: 900,
        startMs: 300,
        collectMs: 40,
        testsMs: 501,
      },
    ]);
    expect(printed.slice(1)).toEqual([
      'Slowest 3 test files (wall time; all 3 in test-results/durations.json):',
      '  61.5 s  b/slow.int.test.ts [db:postgres] failed',
      '   1.7 s  b/slow.int.test.ts [db:embedded]',
      '   0.9 s  a/fast.test.ts [unit]',
    ]);
  });

  it('falls back to the worker’s own times for a file it never saw start', () => {
    const reporter = new DurationsReporter({ root, out: 'other.json', print: () => {}, now: () => 0 });
    reporter.onTestRunStart();
    reporter.onTestModuleEnd(moduleOf(root, 'c.test.ts', 'unit'));
    reporter.onTestRunEnd();
    const written = JSON.parse(readFileSync(join(root, 'other.json'), 'utf8'));
    expect(written.files[0].wallMs).toBe(547);
    expect(written.files[0].startMs).toBe(0);
  });

  it('lists only the ten slowest of many', () => {
    const many = Array.from({ length: 25 }, (_, i) => record(`f${i}.test.ts`, i * 100));
    expect(slowest(many).map((r) => r.file)).toEqual(
      Array.from({ length: 10 }, (_, i) => `f${24 - i}.test.ts`),
    );
    const lines = formatSlowest(many);
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('Slowest 10 test files (wall time; all 25 in test-results/durations.json):');
    expect(formatSlowest([])).toEqual([]);
  });
});
