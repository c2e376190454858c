import { scopeOf } from '../context.ts';
import {
  AnswerCheckoutPageInput,
  CheckoutIdInput,
  CheckoutListOutput,
  CheckoutOutput,
  CheckoutPageInput,
  CheckoutPageOutput,
  CreateCheckoutInput,
  CreditPackListOutput,
  ListCreditPacksInput,
  ListRecentCheckoutsInput,
} from '../contracts/billing.ts';
import { CoreError } from '../errors.ts';
import { answerOnCheckoutPage, checkoutForPage } from '../services/billing/answers.ts';
import { listRecentCheckouts, requireCheckout, toCheckoutDto } from '../services/billing/checkouts.ts';
import { formatCents } from '../services/billing/money.ts';
import { purchasesOffered } from '../services/billing/offer.ts';
import {
  listCreditPacks,
  type PackSnapshot,
  snapshotOf,
  toCreditPackDto,
} from '../services/billing/packs.ts';
import { startCheckout } from '../services/billing/start-checkout.ts';
import {
  actorProcedure,
  adminReadProcedure,
  middleware,
  publicProcedure,
  router,
  writeProcedure,
} from '../trpc.ts';

const tags = ['Billing'];

/** The spec's assistant product that is not offered the purchase tools: `403 not_available`. */
const offeredOnly = middleware(async ({ ctx, next }) => {
  if (ctx.actor && !(await purchasesOffered(ctx.db, ctx.actor, ctx.source))) {
    throw new CoreError('not_available', 'Credit purchases are not offered to this app');
  }
  return next();
});

export const billingRouter = router({
  listPacks: actorProcedure
    .use(offeredOnly)
    .meta({
      openapi: {
        method: 'GET',
        path: '/credit_packs',
        tags,
        summary: 'Credit packs, cheapest first, on one page',
      },
      mcp: {
        tool: 'list_credit_packs',
        title: 'List credit packs',
        scope: 'read',
        purchase: true,
        description:
          'Lists the credit packs for sale, cheapest first (all on one page): id, name, credits (null for the lifetime deal), price in USD, price_per_credit. The lifetime deal is left out when the account already has it. After a 402 insufficient_credits: list packs, buy_credits, have the user pay at checkout_url, poll get_checkout, then retry.',
      },
    })
    .input(ListCreditPacksInput)
    .output(CreditPackListOutput)
    .query(async ({ ctx }) => {
      const rows = await listCreditPacks(ctx.db, scopeOf(ctx.actor).accountId);
      return {
        object: 'list' as const,
        data: rows.map((r) => toCreditPackDto(snapshotOf(r))),
        has_more: false,
        next_cursor: null,
      };
    }),

  createCheckout: writeProcedure
    .use(offeredOnly)
    .meta({
      openapi: { method: 'POST', path: '/checkouts', tags, summary: 'Start a checkout for a credit pack' },
      successStatus: 201,
      idempotent: true,
      errors: [
        'billing_details_required',
        'invalid_discount_code',
        'already_purchased',
        'payment_provider_error',
      ],
      mcp: {
        tool: 'buy_credits',
        title: 'Buy credits',
        hints: { openWorld: true },
        scope: 'write',
        purchase: true,
        description:
          'Starts a checkout for a credit pack (credit_pack_id from list_credit_packs, optional discount_code). Returns a pending checkout: send the user to checkout_url to pay (card details are never handled here), then poll get_checkout until completed or failed. Needs a billing country on the user profile.',
      },
    })
    .input(CreateCheckoutInput)
    .output(CheckoutOutput)
    .mutation(async ({ ctx, input }) => toCheckoutDto(await startCheckout(ctx, ctx.actor, input))),

  getCheckout: actorProcedure
    .use(offeredOnly)
    .meta({
      openapi: { method: 'GET', path: '/checkouts/{id}', tags, summary: 'Get a checkout you started' },
      mcp: {
        tool: 'get_checkout',
        title: 'Get checkout',
        scope: 'read',
        purchase: true,
        description:
          'Returns a checkout started by this user: status pending, completed (credits added) or failed (start a new one), the pack, amount and, while pending, checkout_url.',
      },
    })
    .input(CheckoutIdInput)
    .output(CheckoutOutput)
    .query(async ({ ctx, input }) => toCheckoutDto(await requireCheckout(ctx.db, ctx.actor, input.id))),

  /** The dashboard's Billing page: the signed-in admin's latest checkouts (no `openapi`/`mcp` meta). */
  listRecentCheckouts: adminReadProcedure
    .input(ListRecentCheckoutsInput)
    .output(CheckoutListOutput)
    .query(async ({ ctx, input }) => ({
      object: 'list' as const,
      data: (await listRecentCheckouts(ctx.db, ctx.actor, input.limit)).map(toCheckoutDto),
    })),

  /** The checkout page (`/checkout/{id}?token=`): no API key, the address's token is the access. */
  checkoutPage: publicProcedure
    .input(CheckoutPageInput)
    .output(CheckoutPageOutput)
    .query(async ({ ctx, input }) => {
      const row = await checkoutForPage(ctx, input);
      return {
        checkout: toCheckoutDto(row),
        provider: row.provider as 'simulated' | 'stripe',
        provider_url: row.status === 'pending' && row.provider !== 'simulated' ? row.checkout_url : null,
        list_price: formatCents((row.pack_snapshot as PackSnapshot).price_cents),
      };
    }),

  /** The simulated provider's Pay and Cancel buttons. */
  answerCheckoutPage: publicProcedure
    .input(AnswerCheckoutPageInput)
    .output(CheckoutOutput)
    .mutation(async ({ ctx, input }) => {
      const { checkout } = await answerOnCheckoutPage(ctx, input);
      return toCheckoutDto(checkout);
    }),
});
