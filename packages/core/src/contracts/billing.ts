import { z } from 'zod';
import { DateTime, IdOutput } from './ids.ts';
import { PaginationInput } from './templates.ts';

/** GET /credit_packs takes the list parameters like every list, but always answers with one page. */
export const ListCreditPacksInput = PaginationInput;

export const CreateCheckoutInput = z.object({
  credit_pack_id: IdOutput.positive().describe('id of a credit pack from GET /credit_packs'),
  discount_code: z
    .string()
    .max(64)
    .nullable()
    .optional()
    .describe('a discount code; must be active, not used up and valid for the pack'),
});

export const CheckoutIdInput = z.object({ id: z.string().max(64).describe('checkout UUID') });

const CreditPackOutput = z.object({
  object: z.literal('credit_pack'),
  id: IdOutput,
  name: z.string(),
  description: z.string().nullable(),
  credits: z.number().int().nullable(),
  unlimited: z.boolean(),
  price: z.string().describe('decimal with two places'),
  currency: z.literal('USD'),
  price_per_credit: z.string().nullable(),
});

export const CreditPackListOutput = z.object({
  object: z.literal('list'),
  data: z.array(CreditPackOutput),
  has_more: z.boolean(),
  next_cursor: z.number().int().nullable(),
});

export const CheckoutOutput = z.object({
  object: z.literal('checkout'),
  id: z.string(),
  status: z.enum(['pending', 'completed', 'failed']),
  credit_pack: CreditPackOutput.describe('the offer: the discounted price when a discount code applied'),
  amount: z.string().describe('decimal with two places: the amount charged'),
  currency: z.literal('USD'),
  discount_code: z.string().nullable(),
  checkout_url: z.string().nullable().describe('where the user pays; present only while pending'),
  completed_at: DateTime.nullable(),
  created_at: DateTime,
});

/** The dashboard's list of the user's latest checkouts, newest first. */
export const ListRecentCheckoutsInput = z.object({ limit: z.number().int().min(1).max(50).default(10) });

export const CheckoutListOutput = z.object({ object: z.literal('list'), data: z.array(CheckoutOutput) });

/** The checkout page (`checkout_url` of the simulated provider): its address carries the token. */
export const CheckoutPageInput = z.object({ id: z.string().max(64), token: z.string().max(64) });

export const CheckoutPageOutput = z.object({
  checkout: CheckoutOutput,
  provider: z.enum(['simulated', 'stripe']),
  /** The provider's own page while pending (Stripe's hosted page), for the "continue to payment" link. */
  provider_url: z.string().nullable(),
  list_price: z.string(),
});

export const AnswerCheckoutPageInput = CheckoutPageInput.extend({ action: z.enum(['pay', 'cancel']) });
