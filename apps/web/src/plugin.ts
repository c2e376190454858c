import type { FastifyInstance } from 'fastify';
import { billingPages } from './billing/routes.ts';
import { stripeWebhook } from './billing/stripe-webhook.ts';
import { ccPages } from './cc/routes.ts';
import { dashboardPages } from './dashboard/routes.ts';
import { fileLinks } from './files/routes.ts';
import { oauthServer } from './oauth/routes.ts';
import type { WebOptions, WebRouteOptions } from './options.ts';
import { sendSourcePages } from './send-sources.ts';
import { signingPage } from './signing/routes.ts';
import { smsWebhook } from './sms/routes.ts';
import { ssoPages } from './sso/routes.ts';
import { trpcEndpoint } from './trpc/routes.ts';

/**
 * Pages and the tRPC endpoint the dashboard and the signing page call (README, "Two commands").
 * Each route module lives in its own folder and is registered with one line below.
 */
export async function webApp(app: FastifyInstance, opts: WebOptions): Promise<void> {
  const routeOptions: WebRouteOptions = { ...opts, now: opts.now ?? (() => new Date()) };
  await app.register(trpcEndpoint, routeOptions);
  await app.register(fileLinks, routeOptions);
  await app.register(signingPage, routeOptions);
  await app.register(billingPages, routeOptions);
  await app.register(stripeWebhook, routeOptions);
  // Issue 42.7: replies to our SMS (STOP).
  await app.register(smsWebhook, routeOptions);
  await app.register(dashboardPages, routeOptions);
  await app.register(sendSourcePages, routeOptions);
  // Issue 34.1: a CC recipient's read-only link.
  await app.register(ccPages, routeOptions);
  await app.register(oauthServer, routeOptions);
  // Issue 45 item 4: single sign-on with the account's OpenID Connect provider.
  await app.register(ssoPages, routeOptions);
}
