import { toCoreError } from '@esign/core';
import { type Locale, negotiate, t } from '@esign/i18n';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type PublicPageOptions, publicCaller } from '../http/public-caller.ts';
import { sendPublicPage } from '../http/public-page.ts';
import { closedPage, codePage, detailsPage } from './views.ts';

export type LinkPagesOptions = PublicPageOptions;

type Form = Record<string, string | undefined>;
type Params = { token: string };

/** The link pages post their forms to themselves. */
const html = (reply: FastifyReply, status: number, body: string) =>
  sendPublicPage(reply, { status, body, forms: true });

/** The visitor's language: their browser's Accept-Language, else English. */
const localeOf = (req: FastifyRequest): Locale => negotiate(req.headers['accept-language']) ?? 'en';

/** The page for a refused call: closed links say so; other errors go back to the form. */
function refused(reply: FastifyReply, o: { err: unknown; locale: Locale; form: () => string }) {
  const { err, locale, form } = o;
  const core = toCoreError(err);
  if (core.code === 'internal_error') reply.log.error({ err }, 'link page failed');
  if (core.code === 'not_found')
    return html(
      reply,
      404,
      closedPage(locale, t(locale, 'link.not_found'), t(locale, 'status.invalid_link.body')),
    );
  if (core.code === 'not_open')
    return html(reply, 410, closedPage(locale, t(locale, 'link.not_open'), t(locale, 'status.closed.body')));
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

  app.get<{ Params: Params }>('/l/:token', (req, reply) => showLink(caller(req), req, reply));

  app.post<{ Params: Params; Body: Form }>('/l/:token', async (req, reply) => {
    const locale = localeOf(req);
    if (crossOrigin(req))
      return html(reply, 403, closedPage(locale, t(locale, 'link.refused'), t(locale, 'link.refused_body')));
    const { name = '', email = '' } = req.body ?? {};
    const c = caller(req);
    const page = await c.links.open({ token: req.params.token }).catch(() => null);
    const title = page?.title ?? t(locale, 'page.title');
    try {
      const started = await c.links.start({ token: req.params.token, name, email: email.trim(), locale });
      return html(
        reply,
        200,
        codePage({
          locale,
          title,
          brand: page?.brand ?? null,
          error: null,
          name,
          email: started.email,
          visit: started.visit,
          action: `/l/${req.params.token}/confirm`,
        }),
      );
    } catch (err) {
      return refused(reply, {
        err,
        locale,
        form: () =>
          detailsPage({
            locale,
            title,
            brand: page?.brand ?? null,
            error: friendly(locale, err),
            name,
            email,
          }),
      });
    }
  });

  app.post<{ Params: Params; Body: Form }>('/l/:token/confirm', async (req, reply) => {
    const locale = localeOf(req);
    if (crossOrigin(req))
      return html(reply, 403, closedPage(locale, t(locale, 'link.refused'), t(locale, 'link.refused_body')));
    const { visit = '', code = '', name = '', email = '' } = req.body ?? {};
    const c = caller(req);
    try {
      const done = await c.links.confirm({ token: req.params.token, visit, code, locale });
      return reply.header('Cache-Control', 'no-store').redirect(done.signing_url, 303);
    } catch (err) {
      const page = await c.links.open({ token: req.params.token }).catch(() => null);
      const title = page?.title ?? t(locale, 'page.title');
      const action = `/l/${req.params.token}/confirm`;
      const error = friendly(locale, err);
      return refused(reply, {
        err,
        locale,
        form: () =>
          codePage({ locale, title, brand: page?.brand ?? null, error, name, email, visit, action }),
      });
    }
  });
}

/**
 * A refusal in the visitor's words: the catalogue message core gives it (a wrong or spent code, a
 * limit reached: issue 42); schema messages name fields the way the API does, the form speaks
 * to a person.
 */
function friendly(locale: Locale, err: unknown): string {
  const core = toCoreError(err);
  const { messageKey, messageValues } = core.details;
  if (messageKey) return t(locale, messageKey, messageValues);
  const message = core.message;
  if (/parameter: email|value for email/i.test(message)) return t(locale, 'link.bad_email');
  if (/parameter: name|value for name/i.test(message)) return t(locale, 'link.bad_name');
  if (/parameter: code|value for code/i.test(message)) return t(locale, 'link.bad_code');
  return message;
}

/** GET /l/{token}: the form, or why the link cannot be used. */
async function showLink(
  c: ReturnType<typeof publicCaller>,
  req: FastifyRequest<{ Params: Params }>,
  reply: FastifyReply,
) {
  const locale = localeOf(req);
  try {
    const page = await c.links.open({ token: req.params.token });
    if (page.status !== 'open') {
      const which = page.status === 'off' ? 'off' : 'full';
      return html(
        reply,
        410,
        closedPage(
          locale,
          t(locale, `link.${which}.title`),
          t(locale, `link.${which}.body`, { title: page.title }),
          page.brand,
        ),
      );
    }
    return html(reply, 200, detailsPage({ locale, title: page.title, brand: page.brand, error: null }));
  } catch (err) {
    return refused(reply, { err, locale, form: () => '' });
  }
}
