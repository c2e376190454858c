import { type Config, type CoreDeps, toCoreError } from '@esign/core';
import type { Db } from '@esign/db';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { publicCaller } from '../http/public-caller.ts';
import { checkoutPage, errorPage } from './views.ts';

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
  "form-action 'self'",
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
 * `/checkout/{id}?token=` (the `checkout_url` of the simulated provider): the Pay / Cancel page, and
 * where Stripe sends the buyer back. Buying starts on the dashboard's Billing page (`/billing`, the
 * `purchase_url`). The per-checkout token in the address is the access and the form's CSRF token;
 * cross-origin posts are refused.
 */
export async function billingPages(app: FastifyInstance, opts: BillingPagesOptions): Promise<void> {
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  const origin = new URL(opts.config.PUBLIC_URL).origin;

  const caller = (request: FastifyRequest) => publicCaller(opts, request, 'web');
  const form = (request: FastifyRequest): Form =>
    request.body && typeof request.body === 'object' ? (request.body as Form) : {};
  const crossOrigin = (request: FastifyRequest) =>
    request.headers.origin !== undefined && request.headers.origin !== origin;

  app.get<{ Params: { id: string }; Querystring: { token?: string } }>(
    '/checkout/:id',
    async (request, reply) => {
      const token = String(request.query.token ?? '');
      try {
        const page = await caller(request).billing.checkoutPage({ id: request.params.id, token });
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
      await caller(request).billing.answerCheckoutPage({
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
