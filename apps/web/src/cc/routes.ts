import { toCoreError } from '@esign/core';
import { negotiate } from '@esign/i18n';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type PublicPageOptions, publicCaller } from '../http/public-caller.ts';
import { sendPublicPage } from '../http/public-page.ts';
import { ccNotFound, ccPage } from './views.ts';

/** The CC page has no forms: it allows none and sends no Referer. */
const html = (reply: FastifyReply, status: number, body: string) =>
  sendPublicPage(reply, { status, body, forms: false });

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
      return html(reply, status, ccNotFound(negotiate(req.headers['accept-language']) ?? 'en'));
    }
  });
}
