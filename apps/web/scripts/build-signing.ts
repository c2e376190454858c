import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { SIGNING_MANIFEST, type SigningManifest } from '../src/signing/assets.ts';

const ENTRY = fileURLToPath(new URL('../src/signing/client/main.ts', import.meta.url));

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
 * Bundles the signing page's client (TypeScript and CSS) with esbuild into `outDir`: the script and
 * the stylesheet under content-hashed names (served cached for a year) and the manifest naming them,
 * which the server reads at start (src/signing/assets.ts).
 */
export async function buildSigning(outDir: string): Promise<SigningManifest> {
  const result = await build({
    entryPoints: { signing: ENTRY },
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['chrome100', 'edge100', 'firefox100', 'safari15.4'],
    outdir: outDir,
    write: false,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    plugins: [trpcWithoutSideEffects],
  });
  await mkdir(outDir, { recursive: true });
  const emit = async (ext: '.js' | '.css') => {
    const file = result.outputFiles.find((f) => f.path.endsWith(ext));
    if (!file) throw new Error(`signing page bundle has no ${ext} output`);
    const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 12);
    const name = `signing-${hash}${ext}`;
    await writeFile(join(outDir, name), file.contents);
    return name;
  };
  const manifest: SigningManifest = { js: await emit('.js'), css: await emit('.css') };
  await writeFile(join(outDir, SIGNING_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
