// `pnpm build` (turbo run build) runs this as @esign/web's build task: the dashboard (Vite), the
// signing page and the <esign-form> script (esbuild) into apps/web/dist/{dashboard,signing,embed},
// which the server serves and never builds itself (src/built.ts). Turbo caches the result by the sources (turbo.json beside this file).
import { chmod, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { EMBED_SCRIPT_PATH, WEB_DIST } from '../src/built.ts';
import { buildDashboard } from './build-dashboard.ts';
import { buildEmbed } from './build-embed.ts';
import { buildSigning } from './build-signing.ts';

const started = performance.now();
// Built beside the output and swapped in whole, so a server starting meanwhile never reads half a build.
const tmp = await mkdtemp(join(WEB_DIST, '..', '.dist-'));
try {
  await Promise.all([
    buildDashboard(join(tmp, 'dashboard')),
    buildSigning(join(tmp, 'signing')),
    buildEmbed(join(tmp, EMBED_SCRIPT_PATH)),
  ]);
  await chmod(tmp, 0o755); // mkdtemp makes it private; the output is as readable as a checkout
  await rm(WEB_DIST, { recursive: true, force: true });
  await rename(tmp, WEB_DIST);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(
  `built the dashboard, the signing page and the embed script into ${WEB_DIST} in ${seconds} s (peak ${peakMb} MB)\n`,
);
