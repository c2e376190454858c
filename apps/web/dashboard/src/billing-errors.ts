import { msg } from './messages/index.ts';
import { errorCode, errorMessage } from './trpc.ts';

/** The billing errors of POST /checkouts, in words (the codes are the spec's). */
export function billingErrorMessage(err: unknown): string {
  switch (errorCode(err)) {
    case 'billing_details_required':
      return msg('billing.error.billing_details_required');
    case 'invalid_discount_code':
      return msg('billing.error.invalid_discount_code');
    case 'already_purchased':
      return msg('billing.error.already_purchased');
    case 'payment_provider_error':
      return msg('billing.error.payment_provider_error');
    case 'forbidden':
      return msg('billing.error.forbidden');
    case 'not_found':
      return msg('billing.error.not_found');
    default:
      return errorMessage(err);
  }
}
