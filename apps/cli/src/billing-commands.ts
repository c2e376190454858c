import { CoreError } from '@esign/core';
import {
  answerAsOperator,
  createCreditPack,
  createDiscountCode,
  parseAmount,
  setPurchasesOffered,
  snapshotOf,
  toCheckoutDto,
  toCreditPackDto,
  toDiscountDto,
} from '@esign/core/operator';
import { type Command, date, int, type Options, str } from './commands.ts';

const money = (o: Options, name: string, required = false): number | undefined => {
  const v = str(o, name, required as true);
  return v === undefined ? undefined : parseAmount(v, `--${name}`);
};

const checkoutLine = (r: any) =>
  `Checkout ${r.id}: ${r.status}, ${r.credit_pack.name} for ${r.amount} ${r.currency}`;

function purchases(offered: boolean): Command {
  return {
    usage: `purchases ${offered ? 'offer' : 'hide'} (--key-id N | --client-id C)`,
    options: { 'key-id': { type: 'string' }, 'client-id': { type: 'string' } },
    run: async (ctx, o) =>
      setPurchasesOffered(
        ctx.db,
        { apiKeyId: int(o, 'key-id'), oauthClientId: str(o, 'client-id') },
        offered,
      ),
    text: (r) =>
      `Purchases ${r.purchases_offered ? 'offered' : 'hidden'} for ${r.client.type.replace('_', ' ')} ${r.client.id}`,
  };
}

/** README, "`esign` commands": billing commands (packs, discount codes, the simulated provider's answers). */
export const billingCommands: Record<string, Command> = {
  'pack create': {
    usage: 'pack create --name N (--credits N | --lifetime) --price D.DD [--description T]',
    options: {
      name: { type: 'string' },
      credits: { type: 'string' },
      lifetime: { type: 'boolean' },
      price: { type: 'string' },
      description: { type: 'string' },
    },
    run: async (ctx, o) => {
      const credits = int(o, 'credits');
      if ((credits === undefined) === (o.lifetime !== true)) {
        throw new CoreError('invalid_parameter', 'Give exactly one of --credits N or --lifetime');
      }
      const row = await createCreditPack(
        ctx.db,
        {
          name: str(o, 'name', true),
          credits,
          lifetime: o.lifetime === true,
          priceCents: money(o, 'price', true)!,
          description: str(o, 'description'),
        },
        ctx.now(),
      );
      return toCreditPackDto(snapshotOf(row));
    },
    text: (r) =>
      `Credit pack ${r.id}: ${r.name}, ${r.unlimited ? 'lifetime deal' : `${r.credits} credits`} for ${r.price} ${r.currency}`,
  },
  'discount create': {
    usage:
      'discount create --code C (--percent P | --amount D.DD) [--pack-id N] [--max-uses N] [--expires-at ISO]',
    options: {
      code: { type: 'string' },
      percent: { type: 'string' },
      amount: { type: 'string' },
      'pack-id': { type: 'string' },
      'max-uses': { type: 'string' },
      'expires-at': { type: 'string' },
    },
    run: async (ctx, o) => {
      const row = await createDiscountCode(
        ctx.db,
        {
          code: str(o, 'code', true),
          percentOff: int(o, 'percent'),
          amountOffCents: money(o, 'amount'),
          creditPackId: int(o, 'pack-id') ?? null,
          maxUses: int(o, 'max-uses') ?? null,
          expiresAt: date(o, 'expires-at') ?? null,
        },
        ctx.now(),
      );
      return { discount: toDiscountDto(row) };
    },
    text: (r) =>
      `Discount code ${r.discount.code}: ${r.discount.percent_off !== null ? `${r.discount.percent_off}%` : `${r.discount.amount_off} USD`} off`,
  },
  'checkout confirm': {
    usage: 'checkout confirm --id UUID',
    options: { id: { type: 'string' } },
    run: async (ctx, o) =>
      toCheckoutDto(await answerAsOperator(ctx.db, str(o, 'id', true), 'paid', ctx.now())),
    text: checkoutLine,
  },
  'checkout fail': {
    usage: 'checkout fail --id UUID',
    options: { id: { type: 'string' } },
    run: async (ctx, o) =>
      toCheckoutDto(await answerAsOperator(ctx.db, str(o, 'id', true), 'failed', ctx.now())),
    text: checkoutLine,
  },
  'purchases hide': purchases(false),
  'purchases offer': purchases(true),
};
