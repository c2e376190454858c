import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CONFIG_ERROR_EXIT_CODE } from '@esign/core/exit-codes';
import { type DashboardBuild, loadDashboard } from './dashboard/assets.ts';
import { loadSigningAssets, type SigningAssets } from './signing/assets.ts';

/**
 * Where `pnpm build` (turbo run build: scripts/build.ts) writes the dashboard and the signing page.
 * The server only reads them: it never bundles (no Vite or esbuild at run time).
 */
export const WEB_DIST = fileURLToPath(new URL('../dist', import.meta.url));

/** The command that makes WEB_DIST; `npm start` and the tests run it for you. */
const BUILD_COMMAND = 'pnpm build';

/** Where scripts/build-embed.ts writes the `<esign-form>` script, under WEB_DIST. */
export const EMBED_SCRIPT_PATH = 'embed/esign-form.js';

export interface WebBuild {
  dashboard: DashboardBuild;
  signing: SigningAssets;
  /** the `<esign-form>` script (packages/embed), served at /embed/esign-form.js */
  embedScript: Buffer;
}

/** The build output is not there: the message says which command makes it. */
export class MissingBuildError extends Error {
  override name = 'MissingBuildError';
}

/** Reads the built dashboard and signing page from `dir` into memory. */
export async function loadWebBuild(dir: string = WEB_DIST): Promise<WebBuild> {
  try {
    const [dashboard, signing, embedScript] = await Promise.all([
      loadDashboard(`${dir}/dashboard`),
      loadSigningAssets(`${dir}/signing`),
      readFile(`${dir}/${EMBED_SCRIPT_PATH}`),
    ]);
    return { dashboard, signing, embedScript };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new MissingBuildError(
      `The dashboard and signing page are not built (${(err as NodeJS.ErrnoException).path ?? dir} is missing). ` +
        `Run \`${BUILD_COMMAND}\` (turbo run build) first; \`npm start\` and \`npm test\` run it for you.`,
      { cause: err },
    );
  }
}

let cached: Promise<WebBuild> | null = null;

/** The build in WEB_DIST, read once per process (every web route module shares it). */
export function webBuild(): Promise<WebBuild> {
  if (!cached) {
    cached = loadWebBuild();
    // A failed read is tried again by the next caller (after `pnpm build`), not remembered.
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}

/**
 * For a process's entry, before it starts anything: reads the build (WEB_DIST unless `dir` is
 * given), or exits (CONFIG_ERROR_EXIT_CODE, not restarted) with the message naming the build
 * command, as a bad setting does (loadConfigOrExit).
 */
export async function loadWebBuildOrExit(dir?: string): Promise<WebBuild> {
  try {
    return await (dir === undefined ? webBuild() : loadWebBuild(dir));
  } catch (err) {
    if (!(err instanceof MissingBuildError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(CONFIG_ERROR_EXIT_CODE);
  }
}
