import { toCoreError } from '@esign/core';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type PublicPageOptions, publicCaller } from '../http/public-caller.ts';
import { closedPage, codePage, detailsPage } from './views.ts';

export type LinkPagesOptions = PublicPageOptions;

type Form = Record<string, string | undefined>;
type Params = { token: string };

const CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function html(reply: FastifyReply, status: number, body: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'same-origin')
    .header('X-Robots-Tag', 'noindex, nofollow')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', CSP)
    .send(body);
}

const CLOSED_TITLES: Record<string, string> = {
  off: 'This signing link is turned off',
  full: 'This signing link is no longer available',
};

/** The page for a refused call: closed links say so; other errors go back to the form. */
function refused(reply: FastifyReply, err: unknown, form: () => string) {
  const core = toCoreError(err);
  if (core.code === 'internal_error') reply.log.error({ err }, 'link page failed');
  if (core.code === 'not_found') return html(reply, 404, closedPage('Signing link not found', core.message));
  if (core.code === 'not_open')
    return html(reply, 410, closedPage('This signing link is not available', core.message));
  if (core.code === 'rate_limited' && core.details.retryAfterSeconds)
    reply.header('Retry-After', String(core.details.retryAfterSeconds));
  return html(reply, core.status, form());
}

/**
 * `/l/{token}`: a template's public signing link (source `link`). Name and email, then the emailed
 * code, then on to the signing page of the visitor's own request. The pages call the `links`
 * procedures, so they follow the same rules as any other client of core.
 */
export async function linkPages(app: FastifyInstance, opts: LinkPagesOptions): Promise<void> {
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  const origin = new URL(opts.config.PUBLIC_URL).origin;
  const caller = (req: FastifyRequest) => publicCaller(opts, req, 'link');
  const crossOrigin = (req: FastifyRequest) =>
    req.headers.origin !== undefined && req.headers.origin !== origin;

  app.get<{ Params: Params }>('/l/:token', async (req, reply) => {
    try {
      const page = await caller(req).links.open({ token: req.params.token });
      if (page.status !== 'open')
        return html(
          reply,
          410,
          closedPage(
            CLOSED_TITLES[page.status]!,
            `${page.title}: ${page.status === 'off' ? 'its owner has turned this link off.' : 'it has reached the number of signatures its owner allowed.'} Contact them if you still need to sign.`,
          ),
        );
      return html(reply, 200, detailsPage({ title: page.title, error: null }));
    } catch (err) {
      return refused(reply, err, () => '');
    }
  });

  app.post<{ Params: Params; Body: Form }>('/l/:token', async (req, reply) => {
    if (crossOrigin(req))
      return html(reply, 403, closedPage('Refused', 'This form can only be sent from this site.'));
    const { name = '', email = '' } = req.body ?? {};
    const c = caller(req);
    const page = await c.links.open({ token: req.params.token }).catch(() => null);
    const title = page?.title ?? 'Sign document';
    try {
      const started = await c.links.start({ token: req.params.token, name, email: email.trim() });
      return html(
        reply,
        200,
        codePage({
          title,
          error: null,
          name,
          email: started.email,
          visit: started.visit,
          action: `/l/${req.params.token}/confirm`,
        }),
      );
    } catch (err) {
      const message = toCoreError(err).message;
      return refused(reply, err, () => detailsPage({ title, error: friendly(message), name, email }));
    }
  });

  app.post<{ Params: Params; Body: Form }>('/l/:token/confirm', async (req, reply) => {
    if (crossOrigin(req))
      return html(reply, 403, closedPage('Refused', 'This form can only be sent from this site.'));
    const { visit = '', code = '', name = '', email = '' } = req.body ?? {};
    const c = caller(req);
    try {
      const done = await c.links.confirm({ token: req.params.token, visit, code });
      return reply.header('Cache-Control', 'no-store').redirect(done.signing_url, 303);
    } catch (err) {
      const page = await c.links.open({ token: req.params.token }).catch(() => null);
      const title = page?.title ?? 'Sign document';
      const action = `/l/${req.params.token}/confirm`;
      return refused(reply, err, () =>
        codePage({ title, error: friendly(toCoreError(err).message), name, email, visit, action }),
      );
    }
  });
}

/** Schema messages name fields the way the API does; the form speaks to a person. */
function friendly(message: string): string {
  if (/parameter: email|value for email/i.test(message))
    return 'Enter a valid email address, like name@example.com.';
  if (/parameter: name|value for name/i.test(message)) return 'Enter your full name.';
  if (/parameter: code|value for code/i.test(message)) return 'Enter the six-digit code from the email.';
  return message;
}
