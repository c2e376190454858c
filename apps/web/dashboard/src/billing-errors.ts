import { errorCode, errorMessage } from './trpc.ts';

/** The billing errors of POST /checkouts, in words (the codes are the spec's). */
export function billingErrorMessage(err: unknown): string {
  switch (errorCode(err)) {
    case 'billing_details_required':
      return 'Add your billing country before buying credits.';
    case 'invalid_discount_code':
      return 'That discount code cannot be used: check its spelling, or it may have expired, been used up, or be meant for another pack. Clear it to buy at the full price.';
    case 'already_purchased':
      return 'Your account already has the lifetime deal, so sending is unlimited: there is nothing more to buy.';
    case 'payment_provider_error':
      return 'The payment provider could not start the checkout. Nothing was charged; please try again in a moment.';
    case 'forbidden':
      return 'Only admins of your account can buy credits.';
    case 'not_found':
      return 'That pack is no longer for sale. Pick another one.';
    default:
      return errorMessage(err);
  }
}
