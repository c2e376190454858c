import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { viteBuild } from '../src/dashboard/build.ts';

const dir = mkdtempSync(join(tmpdir(), 'esign-dashboard-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dashboard build', () => {
  it('runs Vite in a process of its own: the server that asks keeps none of its memory (issue 18: < 500 MB)', async () => {
    const before = process.memoryUsage.rss();
    const out = join(dir, 'out');
    const builder = await viteBuild(out);
    const grown = (process.memoryUsage.rss() - before) / 2 ** 20;

    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(builder.pid).not.toBe(process.pid);
    // Vite + Rollup take a few hundred MB (372 MB measured); the caller grows by far less.
    expect(builder.maxRssMb).toBeGreaterThan(100);
    expect(grown).toBeLessThan(builder.maxRssMb / 3);
  });

  it('reports a failed build with the builder’s output', async () => {
    // An output path under a regular file cannot be created.
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    await expect(viteBuild(join(file, 'out'))).rejects.toThrow(
      /dashboard build failed \(exit 1\):\n.*(ENOTDIR|not a directory)/is,
    );
  });
});
