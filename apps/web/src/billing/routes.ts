import {
  type Actor,
  authenticateSession,
  type Config,
  type CoreDeps,
  createCaller,
  createContext,
  getCredits,
  listRecentCheckouts,
  revokeSession,
  safeEqual,
  sessionClearCookie,
  sessionSetCookie,
  signInWithPassword,
  toCheckoutDto,
  toCoreError,
  updateUser,
} from '@esign/core';
import type { Db } from '@esign/db';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { billingPage, checkoutPage, errorPage, signInPage } from './views.ts';

export interface BillingPagesOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now: () => Date;
}

type Form = Record<string, string | undefined>;

const CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  // The buy form is answered by a redirect to the provider's page (Stripe's is on https).
  "form-action 'self' https:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function html(reply: FastifyReply, status: number, body: string) {
  return (
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      // The checkout page's address carries its token: never send it to another site. (`no-referrer`
      // would make browsers send `Origin: null` on our own forms, which the origin check refuses.)
      .header('Referrer-Policy', 'same-origin')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', CSP)
      .send(body)
  );
}

/**
 * `/billing` (the `purchase_url`): a signed-in person sees the packs and buys one, which starts a
 * checkout through the same procedure as POST /checkouts and sends them to its `checkout_url`.
 * `/checkout/{id}?token=`: the checkout page: the simulated provider's Pay / Cancel page, and where
 * Stripe sends the buyer back. Forms carry a CSRF token (per session on /billing, per checkout on
 * the checkout page) and cross-origin posts are refused.
 */
export async function billingPages(app: FastifyInstance, opts: BillingPagesOptions): Promise<void> {
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  const origin = new URL(opts.config.PUBLIC_URL).origin;

  const caller = (request: FastifyRequest, actor: Actor | null) =>
    createCaller(
      createContext({
        db: opts.db,
        logger: opts.logger,
        config: opts.config,
        deps: opts.deps,
        actor,
        source: 'web',
        requestId: String(request.id),
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        now: opts.now,
      }),
    );
  const form = (request: FastifyRequest): Form =>
    request.body && typeof request.body === 'object' ? (request.body as Form) : {};
  const crossOrigin = (request: FastifyRequest) =>
    request.headers.origin !== undefined && request.headers.origin !== origin;
  // The dashboard's session (operations.md §5): the same cookie and rows as /login.
  const session = async (request: FastifyRequest) => {
    const auth = await authenticateSession(opts.db, opts.config, request.headers.cookie, opts.now());
    return auth ? { actor: auth.actor as Actor, csrf: auth.csrfToken } : null;
  };

  async function renderBilling(
    request: FastifyRequest,
    reply: FastifyReply,
    s: { actor: Actor; csrf: string },
    status: number,
    message: { error?: string | null; ok?: string | null } = {},
  ) {
    const packs = await caller(request, s.actor).billing.listPacks({});
    const user = await opts.db
      .selectFrom('users')
      .select('billing_country')
      .where('id', '=', s.actor.userId)
      .executeTakeFirstOrThrow();
    const recent = await listRecentCheckouts(opts.db, s.actor);
    return html(
      reply,
      status,
      billingPage({
        email: s.actor.userEmail,
        csrf: s.csrf,
        credits: await getCredits(opts.db, s.actor.accountId),
        billingCountry: user.billing_country,
        packs: packs.data,
        recent: recent.map(toCheckoutDto),
        error: message.error ?? null,
        ok: message.ok ?? null,
      }),
    );
  }

  /** A form post of a signed-in person: same origin, a live session, its CSRF token. */
  async function signedInPost(request: FastifyRequest, reply: FastifyReply) {
    const s = await session(request);
    if (!s) {
      reply.redirect('/billing', 303);
      return null;
    }
    const token = form(request).csrf ?? '';
    if (crossOrigin(request) || !safeEqual(Buffer.from(token), Buffer.from(s.csrf))) {
      await renderBilling(request, reply, s, 403, { error: 'This form expired. Please try again.' });
      return null;
    }
    return s;
  }

  app.get('/billing', async (request, reply) => {
    const s = await session(request);
    if (!s) return html(reply, 200, signInPage({ error: null }));
    return renderBilling(request, reply, s, 200);
  });

  app.post('/billing/sign-in', async (request, reply) => {
    const { email = '', password = '' } = form(request);
    if (crossOrigin(request)) return html(reply, 403, signInPage({ error: 'Sign in from this site', email }));
    try {
      const created = await signInWithPassword(
        opts.db,
        { email, password },
        { ip: request.ip, userAgent: request.headers['user-agent'] ?? null },
        opts.now(),
      );
      reply.header('set-cookie', sessionSetCookie(opts.config, created.token, created.expiresAt));
      return reply.redirect('/billing', 303);
    } catch (err) {
      const core = toCoreError(err);
      return html(reply, core.status, signInPage({ error: core.message, email }));
    }
  });

  app.post('/billing/sign-out', async (request, reply) => {
    const s = await signedInPost(request, reply);
    if (!s) return reply;
    if (s.actor.sessionId) await revokeSession(opts.db, s.actor.userId, s.actor.sessionId, opts.now());
    reply.header('set-cookie', sessionClearCookie(opts.config));
    return reply.redirect('/billing', 303);
  });

  app.post('/billing/country', async (request, reply) => {
    const s = await signedInPost(request, reply);
    if (!s) return reply;
    try {
      await updateUser(
        opts.db,
        s.actor.userEmail,
        { billingCountry: form(request).billing_country ?? '' },
        opts.now(),
      );
      return reply.redirect('/billing', 303);
    } catch (err) {
      const core = toCoreError(err);
      return renderBilling(request, reply, s, core.status, { error: core.message });
    }
  });

  app.post('/billing/buy', async (request, reply) => {
    const s = await signedInPost(request, reply);
    if (!s) return reply;
    const body = form(request);
    try {
      const checkout = await caller(request, s.actor).billing.createCheckout({
        credit_pack_id: Number(body.credit_pack_id),
        discount_code: body.discount_code?.trim() || null,
      });
      return reply.redirect(checkout.checkout_url!, 303);
    } catch (err) {
      const core = toCoreError(err);
      if (core.code === 'internal_error') request.log.error({ err }, 'billing page checkout failed');
      return renderBilling(request, reply, s, core.status, { error: core.message });
    }
  });

  app.get<{ Params: { id: string }; Querystring: { token?: string } }>(
    '/checkout/:id',
    async (request, reply) => {
      const token = String(request.query.token ?? '');
      try {
        const page = await caller(request, null).billing.checkoutPage({ id: request.params.id, token });
        return html(
          reply,
          200,
          checkoutPage({
            checkout: page.checkout,
            provider: page.provider,
            providerUrl: page.provider_url,
            listPrice: page.list_price,
            token,
            error: null,
          }),
        );
      } catch (err) {
        const core = toCoreError(err);
        return html(reply, core.status, errorPage(core.status, core.message));
      }
    },
  );

  app.post<{ Params: { id: string } }>('/checkout/:id', async (request, reply) => {
    const { token = '', action = '' } = form(request);
    if (crossOrigin(request)) return html(reply, 403, errorPage(403, 'Pay from the checkout page itself'));
    try {
      await caller(request, null).billing.answerCheckoutPage({
        id: request.params.id,
        token,
        action: action as 'pay' | 'cancel',
      });
      return reply.redirect(
        `/checkout/${encodeURIComponent(request.params.id)}?token=${encodeURIComponent(token)}`,
        303,
      );
    } catch (err) {
      const core = toCoreError(err);
      if (core.code === 'internal_error') request.log.error({ err }, 'checkout page answer failed');
      return html(reply, core.status, errorPage(core.status, core.message));
    }
  });
}
