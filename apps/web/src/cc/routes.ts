import { toCoreError } from '@esign/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type PublicPageOptions, publicCaller } from '../http/public-caller.ts';
import { closedPage } from '../links/views.ts';
import { ccPage } from './views.ts';

const CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Robots-Tag', 'noindex, nofollow')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', CSP)
    .send(body);
}

/**
 * `/cc/{token}`: a CC recipient's read-only link (issue 34.1). It calls `recipients.view`, which
 * knows the token by its hash only and answers documents and who has signed; no signing procedure
 * accepts this token.
 */
export async function ccPages(app: FastifyInstance, opts: PublicPageOptions): Promise<void> {
  app.get<{ Params: { token: string } }>('/cc/:token', async (req, reply) => {
    try {
      const view = await publicCaller(opts, req, 'link').recipients.view({ token: req.params.token });
      return html(reply, 200, ccPage(view));
    } catch (err) {
      const core = toCoreError(err);
      if (core.code === 'internal_error') req.log.error({ err }, 'cc page failed');
      const status = core.code === 'internal_error' ? 500 : 404;
      return html(
        reply,
        status,
        closedPage('en', 'Link not found', 'This link is not valid. Ask the sender for a new copy.'),
      );
    }
  });
}
