import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { type AppProcess, isReady, spawnApp, until } from '@esign/testing/processes';
import { ROOT } from '@esign/testing/spawn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLER_LOADED } from '../../../test/no-bundlers.ts';

// Issue 28, item 3: the bundles are made by `turbo run build` (apps/web/scripts/build.ts), and the
// processes that serve them only read apps/web/dist. Each process here runs with a hook that makes
// resolving Vite, Rollup, Rolldown or esbuild fail (in it and in any child it spawns), so a server
// that bundled at start, in the background or on the first request could not serve these pages.
const hook = pathToFileURL(join(ROOT, 'test/no-bundlers-hook.ts')).href;

let tdb: TestDatabase;
const procs: AppProcess[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await tdb?.drop();
});

/** The pages and every file they load: the dashboard at `/`, the signing page and its embed. */
async function expectBuiltPagesServed(base: string): Promise<void> {
  const home = await fetch(`${base}/`);
  expect(home.status).toBe(200);
  const html = await home.text();
  const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  const style = /href="(\/app\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  for (const path of [script, style]) {
    expect(path, html).toBeTruthy();
    expect((await fetch(`${base}${path}`)).status, path).toBe(200);
  }
  for (const page of ['/s/no-such-token', '/e/no-such-token']) {
    const shell = await fetch(`${base}${page}`);
    expect(shell.status, page).toBe(200);
    const text = await shell.text();
    const js = /src="(\/s\/assets\/signing-[0-9a-f]{12}\.js)"/.exec(text)?.[1];
    const css = /href="(\/s\/assets\/signing-[0-9a-f]{12}\.css)"/.exec(text)?.[1];
    for (const path of [js, css]) {
      expect(path, text).toBeTruthy();
      expect((await fetch(`${base}${path}`)).status, path).toBe(200);
    }
  }
}

describe('the servers serve the built pages and never bundle (issue 28, item 3: no build at start)', () => {
  for (const name of ['server', 'web'] as const) {
    it(`apps/${name}: starts and serves the dashboard and the signing page without loading Vite or esbuild`, async () => {
      const proc = await spawnApp(name, {
        DATABASE_URL: tdb.url,
        DATA_DIR: mkdtempSync(join(tmpdir(), `esign-no-bundling-${name}-`)),
        SECRET_KEY: 'no-bundling-test-secret-0123456789abcdef',
        NODE_OPTIONS: `--import=${hook}`,
      });
      procs.push(proc);
      await until(`apps/${name} ready`, async () => (await isReady(proc.base)) || !proc.alive(), 60_000);
      expect(proc.alive(), proc.output()).toBe(true);
      await expectBuiltPagesServed(proc.base);
      expect(proc.output()).not.toContain(BUNDLER_LOADED);
    });
  }
});
