import type { Config } from '../../config.ts';
import { hmac, safeEqual } from '../secret.ts';

/**
 * The page of this service for one checkout: the `simulated` provider's payment page, and the page
 * Stripe sends the buyer back to. Its address carries a token derived from the server secret and
 * the checkout id, so only whoever was given `checkout_url` can open it, and its Pay / Cancel form
 * posts the same token back (a page on another site can neither read nor guess it).
 */
function checkoutPageToken(config: Config, checkoutId: string): string {
  return hmac(config, 'checkout-page', checkoutId).subarray(0, 24).toString('base64url');
}

export function checkoutPageUrl(config: Config, checkoutId: string): string {
  return `${config.PUBLIC_URL}/checkout/${checkoutId}?token=${checkoutPageToken(config, checkoutId)}`;
}

export function checkoutPageTokenValid(config: Config, checkoutId: string, token: unknown): boolean {
  if (typeof token !== 'string' || token.length > 64) return false;
  return safeEqual(
    Buffer.from(token, 'base64url'),
    Buffer.from(checkoutPageToken(config, checkoutId), 'base64url'),
  );
}
