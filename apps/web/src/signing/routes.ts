import type { Config } from '@esign/core';
import { signingPageLocale } from '@esign/core/endpoints';
import type { Db } from '@esign/db';
import type { FastifyInstance } from 'fastify';
import { webBuild } from '../built.ts';
import { pageCsp } from '../http/csp.ts';
import { sendStaticAsset } from '../http/static-asset.ts';
import { ASSET_PREFIX } from './assets.ts';
import { renderSigningShell } from './shell.ts';

/** GET /s/{token}: the signing page (README, "Two commands"), and its script and stylesheet. */
export async function signingPage(app: FastifyInstance, opts: { db: Db; config: Config }): Promise<void> {
  // The client `pnpm build` bundled (src/built.ts), read at start.
  const assets = (await webBuild()).signing;
  const csp = pageCsp(opts.config.PUBLIC_URL, {
    inlineStyles: false,
    formAction: "'none'",
    // Framing goes through /e/{token} (embed/routes.ts), which names the allowed origins.
    noFraming: true,
  });

  app.get<{ Params: { token: string } }>('/s/:token', async (request, reply) => {
    // The signer's language from the first byte (issue 42.6), not only once signing.open answers.
    const locale = await signingPageLocale(opts.db, request.params.token, request.headers['accept-language']);
    return (
      reply
        .type('text/html; charset=utf-8')
        // The token is in the URL: never send it on as a Referer, never cache or index the page.
        .header('Referrer-Policy', 'no-referrer')
        .header('Cache-Control', 'no-store')
        .header('X-Robots-Tag', 'noindex, nofollow')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', csp)
        .send(renderSigningShell(assets, { locale }))
    );
  });

  app.get<{ Params: { file: string } }>(`${ASSET_PREFIX}:file`, async (request, reply) => {
    const path = `${ASSET_PREFIX}${request.params.file}`;
    const asset = [assets.js, assets.css, ...assets.chunks].find((a) => a.path === path);
    return sendStaticAsset(request, reply, asset);
  });
}
