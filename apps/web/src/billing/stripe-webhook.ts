import { type Config, type CoreDeps, toCoreError } from '@esign/core';
import { providerFor, receivePaymentWebhook } from '@esign/core/endpoints';
import type { Db } from '@esign/db';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** The address to give Stripe (Dashboard → Developers → Webhooks): `${PUBLIC_URL}/webhooks/stripe`. */
const STRIPE_WEBHOOK_PATH = '/webhooks/stripe';

export interface StripeWebhookOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now: () => Date;
}

/**
 * Stripe's webhook. The body is kept as the exact bytes received (in this plugin only), because
 * the stripe library verifies the `Stripe-Signature` header over them. 2xx tells Stripe to stop
 * retrying; a failure answers 5xx so Stripe delivers again later.
 */
export async function stripeWebhook(app: FastifyInstance, opts: StripeWebhookOptions): Promise<void> {
  // This plugin's own JSON parser (the app's parses JSON into objects; the signature needs bytes).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
    (_req, body, done) => done(null, body),
  );
  app.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
    try {
      const provider = await providerFor(opts.deps, opts.config, 'live');
      const header = request.headers['stripe-signature'];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await receivePaymentWebhook(opts, provider, {
        rawBody: body,
        signature: Array.isArray(header) ? header[0] : header,
      });
      switch (outcome.kind) {
        case 'not_configured':
          return reply.code(404).send({
            error: { code: 'not_found', message: 'Stripe payments are not configured on this server' },
          });
        case 'bad_signature':
          request.log.warn({ reason: outcome.message }, 'Stripe webhook with a bad signature');
          return reply.code(400).send({
            error: { code: 'invalid_request', message: 'The Stripe-Signature header does not verify' },
          });
        default:
          return reply.code(200).send({ received: true });
      }
    } catch (err) {
      const core = toCoreError(err);
      request.log.error({ err }, 'Stripe webhook failed');
      return reply.code(500).send({ error: { code: core.code, message: core.message } });
    }
  });
}
