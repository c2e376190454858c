import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Locale } from '@esign/i18n/core';
import type { StaticAsset } from '../http/static-asset.ts';

interface Asset extends StaticAsset {
  /** URL path, content-hashed so it can be cached forever */
  path: string;
}

export interface SigningAssets {
  js: Asset;
  css: Asset;
  /** The script's chunks: one catalogue per language but English (issue 32), imported on demand. */
  chunks: Asset[];
  /** Each language's chunk path, for the shell's `<link rel=modulepreload>`. */
  locales: Partial<Record<Locale, string>>;
}

/** What the build writes beside the bundle (scripts/build-signing.ts): the hashed file names. */
export interface SigningManifest {
  js: string;
  css: string;
  chunks: string[];
  locales: Partial<Record<Locale, string>>;
}

export const SIGNING_MANIFEST = 'manifest.json';
export const ASSET_PREFIX = '/s/assets/';

/**
 * Reads the built signing page client (`dist/signing`: script, stylesheet and the manifest naming
 * them) into memory, plain and gzipped, once per process.
 */
export async function loadSigningAssets(dir: string): Promise<SigningAssets> {
  const manifest = JSON.parse(await readFile(join(dir, SIGNING_MANIFEST), 'utf8')) as SigningManifest;
  const load = async (name: string, contentType: string): Promise<Asset> => {
    const body = await readFile(join(dir, name));
    return { path: `${ASSET_PREFIX}${name}`, contentType, body, gzip: gzipSync(body, { level: 9 }) };
  };
  const js = 'text/javascript; charset=utf-8';
  return {
    js: await load(manifest.js, js),
    css: await load(manifest.css, 'text/css; charset=utf-8'),
    chunks: await Promise.all((manifest.chunks ?? []).map((name) => load(name, js))),
    locales: Object.fromEntries(
      Object.entries(manifest.locales ?? {}).map(([locale, name]) => [locale, `${ASSET_PREFIX}${name}`]),
    ),
  };
}
