import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository's root (this file is packages/testing/src/spawn.ts). */
export const ROOT = join(import.meta.dirname, '../../..');

/**
 * Node's compile cache for the `esign` processes the tests start (dozens of them): a start then
 * compiles only what changed since the last one (about half the CPU of a cold start). The run's
 * own (vitest.config.ts sets it for every process of a run), or one of its own.
 */
export const COMPILE_CACHE = process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'esign-test-compile-cache');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `pnpm esign ...` the way the README does (the bin under Node 24 with tsx). */
export function esign(args: string[], env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'apps/cli/bin/esign.mjs'), ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        LOG_LEVEL: 'silent',
        NODE_COMPILE_CACHE: COMPILE_CACHE,
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
