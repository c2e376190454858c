import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import type { StaticAsset } from '../http/static-asset.ts';

interface Asset extends StaticAsset {
  /** URL path, content-hashed so it can be cached forever */
  path: string;
}

export interface SigningAssets {
  js: Asset;
  css: Asset;
}

const ENTRY = fileURLToPath(new URL('./client/main.ts', import.meta.url));
export const ASSET_PREFIX = '/s/assets/';

/**
 * tRPC's packages do not declare `"sideEffects": false`, so esbuild keeps every module their entry
 * imports, links the page never uses included (WebSocket, batching, subscriptions: about 1 KB
 * gzipped). Their modules only define functions and classes, so unused ones can go.
 */
const trpcWithoutSideEffects: Plugin = {
  name: 'trpc-without-side-effects',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (
        args.pluginData === 'trpc' ||
        !(args.path.startsWith('@trpc/') || args.importer.includes('/@trpc/'))
      )
        return undefined;
      const { kind, resolveDir, importer } = args;
      const resolved = await b.resolve(args.path, { kind, resolveDir, importer, pluginData: 'trpc' });
      return resolved.errors.length ? resolved : { path: resolved.path, sideEffects: false };
    });
  },
};

/**
 * Bundles the signing page's client (TypeScript and CSS) with esbuild. Runs in the server process,
 * so starting the service needs no build step; the result is kept in memory (signingAssets()).
 */
export async function buildSigningAssets(): Promise<SigningAssets> {
  const result = await build({
    entryPoints: { signing: ENTRY },
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['chrome100', 'edge100', 'firefox100', 'safari15.4'],
    outdir: join(dirname(ENTRY), 'out'),
    write: false,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    plugins: [trpcWithoutSideEffects],
  });
  const find = (ext: string) => {
    const file = result.outputFiles.find((f) => f.path.endsWith(ext));
    if (!file) throw new Error(`signing page bundle has no ${ext} output`);
    const body = Buffer.from(file.contents);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    return {
      path: `${ASSET_PREFIX}signing-${hash}${ext}`,
      contentType: ext === '.js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      body,
      gzip: gzipSync(body, { level: 9 }),
    };
  };
  return { js: find('.js'), css: find('.css') };
}

let cached: Promise<SigningAssets> | null = null;

/** The bundle, built on first use and then shared by every request of this process. */
export function signingAssets(): Promise<SigningAssets> {
  if (!cached) {
    cached = buildSigningAssets();
    // A failed build is retried on the next request rather than cached.
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}
