import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ROOT } from '@esign/testing/spawn';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWebBuild, MissingBuildError } from '../src/built.ts';
import { loadDashboard } from '../src/dashboard/assets.ts';

const empty = mkdtempSync(join(tmpdir(), 'esign-no-build-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

/** What turbo would run for `turbo run build`, with each task's hash inputs, without running it. */
async function dryRun(): Promise<{
  tasks: { taskId: string; inputs: Record<string, string>; dependencies: string[]; outputs: string[] }[];
}> {
  const { stdout } = await promisify(execFile)(
    join(ROOT, 'node_modules/.bin/turbo'),
    ['run', 'build', '--filter=@esign/web', '--dry=json'],
    { cwd: ROOT, maxBuffer: 64 * 2 ** 20 },
  );
  return JSON.parse(stdout);
}

describe('the web build (issue 28, item 3: a turbo task, not a step of the server)', () => {
  it('a missing build is reported naming the build command', async () => {
    const err = await loadWebBuild(empty).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingBuildError);
    expect((err as Error).message).toMatch(/not built .*`pnpm build`/);
  });

  it('serves only the assets its build lists: files an earlier build left (a cache restore keeps them) are not loaded', async () => {
    const dir = join(empty, 'dashboard');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<script src="/app/assets/index-new.js"></script>');
    writeFileSync(join(dir, 'assets.json'), JSON.stringify(['index-new.js']));
    writeFileSync(join(dir, 'assets', 'index-new.js'), 'new');
    writeFileSync(join(dir, 'assets', 'index-old.js'), 'old');
    const built = await loadDashboard(dir);
    expect([...built.assets.keys()]).toEqual(['index-new.js']);
    expect(built.assets.get('index-new.js')?.contentType).toMatch(/javascript/);
    rmSync(dir, { recursive: true });
  });

  it('the check the web and all-in-one processes run first exits with status 78 (a configuration error, never restarted) and that message', () => {
    const built = pathToFileURL(join(ROOT, 'apps/web/src/built.ts')).href;
    const script = `import { loadWebBuildOrExit } from '${built}'; await loadWebBuildOrExit(${JSON.stringify(empty)});`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(78);
    expect(run.stderr).toMatch(/dashboard and signing page are not built .*Run `pnpm build`/);
  });

  it('turbo hashes the dashboard, the signing client and the workspace packages they import; outputs dist/', async () => {
    const task = (await dryRun()).tasks.find((t) => t.taskId === '@esign/web#build');
    expect(task).toBeDefined();
    const inputs = Object.keys(task!.inputs);
    for (const file of [
      'dashboard/src/main.tsx',
      'dashboard/vite.config.ts',
      'src/signing/client/main.ts',
      'src/signing/client/styles.css',
      'scripts/build.ts',
    ]) {
      expect(inputs).toContain(file);
    }
    // The dashboard imports core's schemas and domain's values; the client imports domain.
    expect(task!.dependencies).toEqual(
      expect.arrayContaining(['@esign/core#transit', '@esign/domain#transit']),
    );
    expect(task!.outputs).toEqual(['dist/**']);
  });
});
