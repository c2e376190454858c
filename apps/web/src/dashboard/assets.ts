import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { StaticAsset } from '../http/static-asset.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/** The build's list of its files in assets/ (scripts/build-dashboard.ts writes it). */
export const DASHBOARD_FILES = 'assets.json';

/** The built dashboard: its page and its hashed assets by file name. */
export interface DashboardBuild {
  index: Buffer;
  assets: Map<string, StaticAsset>;
}

/**
 * Reads the built dashboard (`dist/dashboard`, scripts/build-dashboard.ts) into memory, plain and
 * gzipped: the page and the assets its build lists (not files an earlier build left in assets/).
 */
export async function loadDashboard(dir: string): Promise<DashboardBuild> {
  const index = await readFile(join(dir, 'index.html'));
  const files = JSON.parse(await readFile(join(dir, DASHBOARD_FILES), 'utf8')) as string[];
  const assets = new Map<string, StaticAsset>();
  for (const name of files) {
    const body = await readFile(join(dir, 'assets', name));
    assets.set(name, {
      contentType: TYPES[extname(name)] ?? 'application/octet-stream',
      body,
      gzip: gzipSync(body),
    });
  }
  return { index, assets };
}
