import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import configFn from '../dashboard/vite.config.ts';
import { DASHBOARD_FILES } from '../src/dashboard/assets.ts';

/**
 * Builds the dashboard (a Vite + React app, `dashboard/`) into `outDir`: index.html, assets/ and
 * the list of this build's assets the server loads (a cache restore does not empty assets/).
 */
export async function buildDashboard(outDir: string): Promise<void> {
  const config = await configFn({
    command: 'build',
    mode: 'production',
    isSsrBuild: false,
    isPreview: false,
  });
  await build({
    ...config,
    configFile: false,
    root: fileURLToPath(new URL('../dashboard/', import.meta.url)),
    logLevel: 'warn',
    build: { ...config.build, outDir, emptyOutDir: true },
  });
  const files = (await readdir(join(outDir, 'assets'))).sort();
  await writeFile(join(outDir, DASHBOARD_FILES), `${JSON.stringify(files, null, 2)}\n`);
}
