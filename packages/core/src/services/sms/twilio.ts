import { guardedFetch } from '@esign/webhooks';
import type { Config } from '../../config.ts';
import type { CoreDeps } from '../../context.ts';

/** The provider refused this message for good (a 4xx answer other than 408 and 429): not retried. */
export class SmsRefused extends Error {}

interface TwilioAnswer {
  sid?: string;
  code?: number;
  message?: string;
}

/**
 * Sends one SMS with Twilio's Messages API (`POST /2010-04-01/Accounts/{sid}/Messages.json`, form
 * encoded, HTTP Basic with the account SID and auth token) through the guarded outbound fetch,
 * and returns the message SID. `TWILIO_BASE_URL` is the operator's own choice (a local server
 * speaking the same API in tests and staging), so a private address is allowed for it; redirects
 * are not followed (they would carry the credentials elsewhere). Throws {@link SmsRefused} when
 * Twilio refused the message, any other error when it may work later (5xx, 429, network).
 */
export async function sendTwilioSms(
  config: Config,
  deps: CoreDeps,
  message: { to: string; body: string },
): Promise<string> {
  const sid = config.TWILIO_ACCOUNT_SID!;
  const form = new URLSearchParams({ To: message.to, Body: message.body });
  if (config.TWILIO_MESSAGING_SERVICE_SID)
    form.set('MessagingServiceSid', config.TWILIO_MESSAGING_SERVICE_SID);
  else form.set('From', config.TWILIO_FROM!);
  // Its final status (undelivered, failed) comes back here (status-callback.ts, issue 42.5).
  form.set('StatusCallback', `${config.PUBLIC_URL.replace(/\/+$/, '')}/webhooks/sms`);
  const base = config.TWILIO_BASE_URL.replace(/\/+$/, '');
  const custom = base !== 'https://api.twilio.com';
  const res = await guardedFetch(`${base}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${sid}:${config.TWILIO_AUTH_TOKEN}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: form.toString(),
    timeoutMs: 15_000,
    maxBytes: 64 * 1024,
    maxRedirects: 0,
    allowPrivate: custom || (deps.outbound?.allowPrivate ?? false),
    ca: deps.outbound?.ca,
    lookup: deps.outbound?.lookup,
  });
  let answer: TwilioAnswer = {};
  try {
    answer = JSON.parse(Buffer.from(res.body).toString('utf8')) as TwilioAnswer;
  } catch {
    // not JSON (a proxy's error page): the status decides
  }
  if (res.status >= 200 && res.status < 300 && typeof answer.sid === 'string') return answer.sid;
  const what = `Twilio answered ${res.status}${answer.code ? ` (error ${answer.code})` : ''}${
    answer.message ? `: ${answer.message}` : ''
  }`;
  if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429)
    throw new SmsRefused(what);
  throw new Error(what);
}
