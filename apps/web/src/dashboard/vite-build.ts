// Builds the dashboard into the directory given as the only argument. Run as its own process by
// build.ts: Vite, Rollup and the React plugin take ~370 MB that a long-running server would keep.
// Prints one JSON line at the end: {"pid", "maxRssMb"}.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import configFn from '../../dashboard/vite.config.ts';

const outDir = process.argv[2];
if (!outDir) {
  process.stderr.write('usage: node vite-build.ts <outDir>\n');
  process.exit(2);
}
const config = await configFn({ command: 'build', mode: 'production', isSsrBuild: false, isPreview: false });
await build({
  ...config,
  configFile: false,
  root: fileURLToPath(new URL('../../dashboard/', import.meta.url)),
  logLevel: 'warn',
  build: { ...config.build, outDir, emptyOutDir: true },
});
const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(`${JSON.stringify({ pid: process.pid, maxRssMb })}\n`);
