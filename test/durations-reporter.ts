import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where each test file's time goes (issue 43.4): every run writes one record per file (wall time,
 * project, result, the worker's own breakdown) to test-results/durations.json, git-ignored, and
 * prints the ten slowest at the end. Wall time is measured here, in the main process, from the
 * moment a worker starts the file to the moment its result arrives: what the file costs the run.
 */
export interface FileDuration {
  file: string;
  project: string;
  result: string;
  /** Wall time in ms, from the file's start on a worker to its end. */
  wallMs: number;
  /** When the file started, in ms from the run's start: which phase of the run it spent. */
  startMs: number;
  /** The worker's own breakdown in ms: importing the file, and running its tests and hooks. */
  collectMs: number;
  testsMs: number;
}

export const DURATIONS_FILE = 'test-results/durations.json';
const SHOWN = 10;

/** The slowest `count` files, slowest first. */
export function slowest(records: readonly FileDuration[], count = SHOWN): FileDuration[] {
  return [...records].sort((a, b) => b.wallMs - a.wallMs).slice(0, count);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The lines printed at the end of a run: a heading, then one line per file, slowest first. */
export function formatSlowest(records: readonly FileDuration[], count = SHOWN): string[] {
  const top = slowest(records, count);
  if (top.length === 0) return [];
  const width = Math.max(...top.map((r) => seconds(r.wallMs).length));
  return [
    `Slowest ${top.length} test files (wall time; all ${records.length} in ${DURATIONS_FILE}):`,
    ...top.map(
      (r) =>
        `  ${seconds(r.wallMs).padStart(width)}  ${r.file} [${r.project}]${r.result === 'passed' ? '' : ` ${r.result}`}`,
    ),
  ];
}

export default class DurationsReporter implements Reporter {
  readonly #root: string;
  readonly #out: string;
  readonly #print: (line: string) => void;
  readonly #now: () => number;
  readonly #started = new Map<string, number>();
  readonly #records: FileDuration[] = [];
  #runStarted = 0;

  constructor(
    options: { root?: string; out?: string; print?: (line: string) => void; now?: () => number } = {},
  ) {
    this.#root = options.root ?? process.cwd();
    this.#out = resolve(this.#root, options.out ?? DURATIONS_FILE);
    this.#print = options.print ?? ((line) => process.stdout.write(`${line}\n`));
    this.#now = options.now ?? performance.now.bind(performance);
  }

  onTestRunStart(): void {
    this.#started.clear();
    this.#records.length = 0;
    this.#runStarted = this.#now();
  }

  onTestModuleQueued(module: TestModule): void {
    this.#started.set(key(module), this.#now());
  }

  onTestModuleEnd(module: TestModule): void {
    const diagnostic = module.diagnostic();
    const started = this.#started.get(key(module));
    const worker =
      diagnostic.environmentSetupDuration +
      diagnostic.prepareDuration +
      diagnostic.setupDuration +
      diagnostic.collectDuration +
      diagnostic.duration;
    this.#records.push({
      file: relative(this.#root, module.moduleId),
      project: module.project.name,
      result: module.state(),
      wallMs: Math.round(started === undefined ? worker : this.#now() - started),
      startMs: Math.max(0, Math.round((started ?? this.#now() - worker) - this.#runStarted)),
      collectMs: Math.round(diagnostic.collectDuration),
      testsMs: Math.round(diagnostic.duration),
    });
  }

  onTestRunEnd(): void {
    if (this.#records.length === 0) return;
    const records = slowest(this.#records, this.#records.length);
    mkdirSync(dirname(this.#out), { recursive: true });
    writeFileSync(
      this.#out,
      `${JSON.stringify({ written: new Date().toISOString(), files: records }, null, 2)}\n`,
    );
    this.#print('');
    for (const line of formatSlowest(records)) this.#print(line);
  }
}

/** A file runs once per project: the project's name tells its runs apart. */
const key = (module: TestModule) => `${module.project.name}\0${module.moduleId}`;
