import { sessionSetCookie } from '@esign/core';
import {
  finishSsoSignIn,
  SsoError,
  ssoStateFromCookie,
  ssoStateSetCookie,
  startSsoSignIn,
} from '@esign/core/endpoints';
import { NextPath } from '@esign/core/schemas/auth';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebRouteOptions } from '../options.ts';

// Single sign-on's two pages (issue 45 item 4). The adapter only translates: core finds the
// account, talks to the provider and opens the session; here the browser is redirected, and the
// sign-in's state rides in a short-lived cookie that binds the provider's answer to this browser.

const failed = (reply: FastifyReply, reason: string) =>
  reply.redirect(`/login?sso_error=${encodeURIComponent(reason)}`, 303);

export async function ssoPages(app: FastifyInstance, opts: WebRouteOptions): Promise<void> {
  const sc = () => ({
    db: opts.db,
    logger: opts.logger,
    config: opts.config,
    deps: opts.deps,
    now: opts.now,
  });

  app.get<{ Querystring: { email?: string; next?: string } }>('/sso/start', async (req, reply) => {
    const next = NextPath.safeParse(req.query.next);
    try {
      const { url, state } = await startSsoSignIn(sc(), {
        email: String(req.query.email ?? '').slice(0, 254),
        next: next.success ? next.data : null,
        ip: req.ip,
      });
      reply.header('set-cookie', ssoStateSetCookie(opts.config, state, 600));
      return reply.redirect(url, 303);
    } catch (e) {
      if (e instanceof SsoError) return failed(reply, e.reason);
      throw e;
    }
  });

  app.get('/sso/callback', async (req, reply) => {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    const cookieState = ssoStateFromCookie(req.headers.cookie);
    const clear = ssoStateSetCookie(opts.config, '', 0);
    try {
      const { session, next } = await finishSsoSignIn(
        sc(),
        { query, cookieState },
        { ip: req.ip, userAgent: req.headers['user-agent'] ?? null },
      );
      reply.header('set-cookie', [clear, sessionSetCookie(opts.config, session.token, session.expiresAt)]);
      return reply.redirect(next ?? '/', 303);
    } catch (e) {
      reply.header('set-cookie', clear);
      if (e instanceof SsoError) return failed(reply, e.reason);
      throw e;
    }
  });
}
