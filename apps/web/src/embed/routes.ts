import type { Config } from '@esign/core';
import { embedFrameOrigins, signingPageLocale } from '@esign/core/endpoints';
import type { Db } from '@esign/db';
import type { FastifyInstance } from 'fastify';
import { webBuild } from '../built.ts';
import { pageCsp } from '../http/csp.ts';
import { renderSigningShell } from '../signing/shell.ts';

/**
 * Embedded signing (source `embed`, docs/embed.md): `/embed/esign-form.js` (the `<esign-form>`
 * element, built from packages/embed) and `/e/{token}`, the signing page it frames. That page may
 * be framed only by the origins the account allows (frame-ancestors), and only for requests sent
 * with `embed: true`; anything else gets `frame-ancestors 'none'`.
 */
export async function embedPages(app: FastifyInstance, opts: { db: Db; config: Config }): Promise<void> {
  const { signing: assets, embedScript } = await webBuild();
  const base = pageCsp(opts.config.PUBLIC_URL, {
    inlineStyles: false,
    formAction: "'none'",
    noFraming: false,
  });

  app.get('/embed/esign-form.js', async (_req, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(embedScript),
  );

  app.get<{ Params: { token: string } }>('/e/:token', async (req, reply) => {
    const origins = await embedFrameOrigins(opts.db, req.params.token);
    const locale = await signingPageLocale(opts.db, req.params.token, req.headers['accept-language']);
    const ancestors = origins.length ? origins.join(' ') : "'none'";
    return reply
      .type('text/html; charset=utf-8')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cache-Control', 'no-store')
      .header('X-Robots-Tag', 'noindex, nofollow')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', `${base}; frame-ancestors ${ancestors}`)
      .send(
        renderSigningShell(assets, {
          embedOrigins: origins,
          locale,
        }),
      );
  });
}
