import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Config } from '@esign/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { pageCsp } from '../http/csp.ts';
import { type StaticAsset, sendStaticAsset } from '../http/static-asset.ts';
import { ensureDashboardBuilt } from './build.ts';

/** Addresses the dashboard's client-side router answers (README: `/` is the dashboard). */
const DASHBOARD_PATHS = [
  '/',
  '/login',
  '/login/link',
  '/signup',
  '/reset-password',
  '/invite',
  '/templates',
  '/templates/:id/edit',
  '/send',
  '/requests',
  '/requests/:id',
  '/api-keys',
  '/connected-apps',
  '/webhooks',
  '/team',
  '/account',
  // The spec's `purchase_url`: the Billing page is where people buy credit packs.
  '/billing',
  // More ways to send (docs/sending.md).
  '/templates/:id/link',
  '/bulk',
  '/embed',
] as const;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

interface Built {
  index: Buffer;
  assets: Map<string, StaticAsset>;
}

async function loadBuild(dir: string): Promise<Built> {
  const assets = new Map<string, StaticAsset>();
  const assetDir = join(dir, 'assets');
  for (const name of await readdir(assetDir).catch(() => [] as string[])) {
    const body = await readFile(join(assetDir, name));
    assets.set(name, {
      contentType: TYPES[extname(name)] ?? 'application/octet-stream',
      body,
      gzip: gzipSync(body),
    });
  }
  return { index: await readFile(join(dir, 'index.html')), assets };
}

/**
 * Serves the dashboard from the same process: the page at every dashboard address, its hashed
 * assets under /app/assets/. The build starts when the server starts (a fresh clone builds it
 * once; later starts reuse it) and requests wait for it.
 */
export async function dashboardPages(app: FastifyInstance, opts: { config: Config }): Promise<void> {
  let built: Promise<Built> | null = null;
  const get = () => {
    if (!built) {
      built = ensureDashboardBuilt((msg) => app.log.info(msg)).then(loadBuild);
      built.catch((err) => {
        app.log.error({ err }, 'dashboard build failed');
        built = null;
      });
    }
    return built;
  };
  void get().catch(() => {});
  const csp = pageCsp(opts.config.PUBLIC_URL, { inlineStyles: true, formAction: "'self'", noFraming: true });

  const page = async (reply: FastifyReply) => {
    const { index } = await get();
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', csp)
      .header('X-Frame-Options', 'DENY')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'same-origin')
      .send(index);
  };
  for (const path of DASHBOARD_PATHS) app.get(path, (_req, reply) => page(reply));

  app.get<{ Params: { file: string } }>('/app/assets/:file', async (request, reply) => {
    return sendStaticAsset(request, reply, (await get()).assets.get(request.params.file));
  });
}
