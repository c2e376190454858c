import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { StaticAsset } from '../http/static-asset.ts';

interface Asset extends StaticAsset {
  /** URL path, content-hashed so it can be cached forever */
  path: string;
}

export interface SigningAssets {
  js: Asset;
  css: Asset;
}

/** What the build writes beside the bundle (scripts/build-signing.ts): the hashed file names. */
export interface SigningManifest {
  js: string;
  css: string;
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
  return {
    js: await load(manifest.js, 'text/javascript; charset=utf-8'),
    css: await load(manifest.css, 'text/css; charset=utf-8'),
  };
}
