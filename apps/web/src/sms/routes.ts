import { toCoreError } from '@esign/core';
import { receiveInboundSms } from '@esign/core/endpoints';
import type { FastifyInstance } from 'fastify';
import type { WebRouteOptions } from '../options.ts';

/**
 * The address to give the SMS provider for incoming messages (Twilio: the phone number's or
 * Messaging Service's "A message comes in" webhook, HTTP POST): `${PUBLIC_URL}/webhooks/sms`.
 */
const SMS_WEBHOOK_PATH = '/webhooks/sms';

/** An empty TwiML answer: nothing is sent back (the provider confirms an opt-out itself). */
const TWIML_EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * Replies to our SMS (issue 42.7, core sms/inbound.ts): form-encoded, as Twilio posts them, and
 * verified with the X-Twilio-Signature header over `${PUBLIC_URL}${path}` and the parameters.
 */
export async function smsWebhook(app: FastifyInstance, opts: WebRouteOptions): Promise<void> {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_req, body, done) => done(null, new URLSearchParams(body as string)),
  );
  app.post(SMS_WEBHOOK_PATH, async (request, reply) => {
    try {
      const header = request.headers['x-twilio-signature'];
      const outcome = await receiveInboundSms(
        { db: opts.db, config: opts.config, now: opts.now },
        {
          url: `${opts.config.PUBLIC_URL}${request.url}`,
          params: request.body instanceof URLSearchParams ? request.body : new URLSearchParams(),
          signature: Array.isArray(header) ? header[0] : header,
        },
      );
      switch (outcome.kind) {
        case 'not_configured':
          return reply.code(404).send({
            error: { code: 'not_found', message: 'SMS is not configured on this server (SMS_PROVIDER)' },
          });
        case 'bad_signature':
          request.log.warn('inbound SMS with a bad signature');
          return reply.code(400).send({
            error: { code: 'invalid_request', message: 'The X-Twilio-Signature header does not verify' },
          });
        default:
          return reply.code(200).type('text/xml').send(TWIML_EMPTY);
      }
    } catch (err) {
      const core = toCoreError(err);
      request.log.error({ err }, 'inbound SMS failed');
      return reply.code(500).send({ error: { code: core.code, message: core.message } });
    }
  });
}
