import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Catalogue, LOCALES, type Locale } from '@esign/i18n/core';
import { precompile } from '@esign/i18n/precompile';
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
 * Issue 43: the catalogues' surfaces the signing page never shows, by key prefix: the emails and
 * text messages (an approver's and a viewer's too), the audit trail, the CC recipient's page and the
 * names of downloads, which only the server words. The page's catalogues leave them out
 * (test/signing-assets.test.ts: the client names none of them, and the chunks carry none).
 */
export const OFF_PAGE_PREFIXES = ['mail.', 'part.mail.', 'sms.', 'part.sms.', 'audit.', 'cc.', 'file.'];

/**
 * Issue 32: the catalogues reach the page parsed (ICU AST, @esign/i18n/precompile), so the bundle
 * formats with intl-messageformat but without the ICU parser and its number-skeleton parser
 * (FormatJS's `no-parser` entry: about 8 KB gzipped less); issue 43: only the messages the page
 * shows (OFF_PAGE_PREFIXES).
 */
const precompiledMessages: Plugin = {
  name: 'precompiled-messages',
  setup(b) {
    b.onResolve({ filter: /^@formatjs\/icu-messageformat-parser$/ }, (args) =>
      b.resolve('@formatjs/icu-messageformat-parser/no-parser.js', {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
      }),
    );
    b.onLoad({ filter: /i18n\/src\/catalogues\/[a-z]{2}\.ts$/ }, async (args) => {
      const locale = basename(args.path, '.ts') as Locale;
      const catalogue = ((await import(pathToFileURL(args.path).href)) as Record<string, Catalogue>)[locale]!;
      const onPage = Object.entries(precompile(catalogue, locale)).filter(
        ([key]) => !OFF_PAGE_PREFIXES.some((prefix) => key.startsWith(prefix)),
      );
      return {
        contents: `export const ${locale} = ${JSON.stringify(Object.fromEntries(onPage))};`,
        loader: 'js',
      };
    });
    // Issue 42.6: the pseudo-language en-XA (a chunk the page loads only when asked for it).
    b.onLoad({ filter: /i18n\/src\/pseudo\.ts$/ }, async (args) => {
      const { pseudoCatalogue } = (await import(pathToFileURL(args.path).href)) as {
        pseudoCatalogue: () => unknown;
      };
      return {
        contents: `const c = ${JSON.stringify(pseudoCatalogue())};\nexport function pseudoCatalogue() { return c; }`,
        loader: 'js',
      };
    });
  },
};

/** The language a catalogue chunk holds, from its entry in esbuild's metafile. */
function chunkLocale(entryPoint: string | undefined): Locale | null {
  const m = entryPoint ? /catalogues\/([a-z]{2})\.ts$/.exec(entryPoint) : null;
  return m && (LOCALES as readonly string[]).includes(m[1]!) ? (m[1] as Locale) : null;
}

/**
 * Bundles the signing page's client (TypeScript and CSS) with esbuild into `outDir`: the script
 * (an ES module) and the stylesheet under content-hashed names (served cached for a year), one
 * chunk per language but English (issue 32: the script imports the page's catalogue when it needs
 * it; English, the fallback, is in the script), and the manifest naming them, which the server
 * reads at start (src/signing/assets.ts).
 */
export async function buildSigning(outDir: string): Promise<SigningManifest> {
  const result = await build({
    entryPoints: { signing: ENTRY },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    chunkNames: 'signing-[name]-[hash]',
    target: ['chrome100', 'edge100', 'firefox100', 'safari15.4'],
    outdir: outDir,
    write: false,
    metafile: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    plugins: [precompiledMessages, trpcWithoutSideEffects],
  });
  await mkdir(outDir, { recursive: true });
  const entry = (ext: '.js' | '.css') => {
    const file = result.outputFiles.find(
      (f) => f.path.endsWith(ext) && basename(f.path).startsWith('signing.'),
    );
    if (!file) throw new Error(`signing page bundle has no ${ext} output`);
    return file;
  };
  // The script and stylesheet take names of our own (nothing refers to them but the manifest); the
  // chunks keep esbuild's, which the script imports by.
  const emit = async (ext: '.js' | '.css') => {
    const file = entry(ext);
    const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 12);
    const name = `signing-${hash}${ext}`;
    await writeFile(join(outDir, name), file.contents);
    return name;
  };
  const locales: Partial<Record<Locale, string>> = {};
  const chunks: string[] = [];
  for (const file of result.outputFiles) {
    const name = basename(file.path);
    if (name.startsWith('signing.')) continue;
    await writeFile(join(outDir, name), file.contents);
    chunks.push(name);
    const meta = Object.entries(result.metafile.outputs).find(([path]) => basename(path) === name)?.[1];
    const locale = chunkLocale(meta?.entryPoint);
    if (locale) locales[locale] = name;
  }
  const manifest: SigningManifest = {
    js: await emit('.js'),
    css: await emit('.css'),
    chunks: chunks.sort(),
    locales,
  };
  await writeFile(join(outDir, SIGNING_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
