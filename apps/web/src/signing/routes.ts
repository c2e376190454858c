import type { Config } from '@esign/core';
import type { FastifyInstance } from 'fastify';
import { pageCsp } from '../http/csp.ts';
import { sendStaticAsset } from '../http/static-asset.ts';
import { ASSET_PREFIX, signingAssets } from './assets.ts';
import { renderSigningShell } from './shell.ts';

/** GET /s/{token}: the signing page (README, "Two commands"), and its script and stylesheet. */
export async function signingPage(app: FastifyInstance, opts: { config: Config }): Promise<void> {
  // Start bundling now so the first signer does not wait for it; failures surface per request.
  void signingAssets().catch((err) => app.log.error({ err }, 'signing page bundle failed'));
  const csp = pageCsp(opts.config.PUBLIC_URL, {
    inlineStyles: false,
    formAction: "'none'",
    // Framing goes through /e/{token} (embed/routes.ts), which names the allowed origins.
    noFraming: true,
  });

  app.get<{ Params: { token: string } }>('/s/:token', async (_request, reply) => {
    const assets = await signingAssets();
    return (
      reply
        .type('text/html; charset=utf-8')
        // The token is in the URL: never send it on as a Referer, never cache or index the page.
        .header('Referrer-Policy', 'no-referrer')
        .header('Cache-Control', 'no-store')
        .header('X-Robots-Tag', 'noindex, nofollow')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', csp)
        .send(renderSigningShell(assets))
    );
  });

  app.get<{ Params: { file: string } }>(`${ASSET_PREFIX}:file`, async (request, reply) => {
    const assets = await signingAssets();
    const asset = [assets.js, assets.css].find((a) => a.path === `${ASSET_PREFIX}${request.params.file}`);
    return sendStaticAsset(request, reply, asset);
  });
}
