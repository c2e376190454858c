import type { Environment } from '@esign/db';
import type { Config } from '../../config.ts';

import type { PaymentProvider } from './payment-provider.ts';

export type { PaymentProvider } from './payment-provider.ts';
export { PaymentSignatureError } from './payment-provider.ts';

/** `simulated`: nobody is charged; the page of this service at `pageUrl` plays the payment. */
const simulatedProvider: PaymentProvider = {
  name: 'simulated',
  async start(input) {
    return { ref: null, url: input.pageUrl };
  },
};

const fromConfig = new WeakMap<Config, Promise<PaymentProvider>>();

/** The provider `PAYMENT_PROVIDER` names, built once per configuration (Stripe loaded only when used). */
function createPaymentProvider(config: Config): Promise<PaymentProvider> {
  let provider = fromConfig.get(config);
  if (!provider) {
    provider =
      config.PAYMENT_PROVIDER === 'stripe'
        ? import('./stripe.ts').then(({ createStripeClient, stripeProvider }) =>
            stripeProvider(createStripeClient(config.STRIPE_SECRET_KEY!), config.STRIPE_WEBHOOK_SECRET),
          )
        : Promise.resolve(simulatedProvider);
    fromConfig.set(config, provider);
  }
  return provider;
}

/**
 * The provider for a checkout: the test side of an account never charges anyone, so its checkouts
 * always use `simulated` (and add no credits: the test side does not use credits).
 */
export async function providerFor(
  deps: { payments?: PaymentProvider },
  config: Config,
  environment: Environment,
): Promise<PaymentProvider> {
  if (environment === 'test') return simulatedProvider;
  return deps.payments ?? createPaymentProvider(config);
}
