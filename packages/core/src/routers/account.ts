import type { z } from 'zod';
import { type Actor, type Ctx, scopeOf } from '../context.ts';
import { AccountOutput, CreditsOutput, EmptyInput, MeOutput } from '../contracts/account.ts';
import { getAccount } from '../services/accounts.ts';
import { listBrands } from '../services/brands/index.ts';
import { getCredits } from '../services/credits.ts';
import { actorProcedure, router } from '../trpc.ts';

async function toMeDto(ctx: Ctx, actor: Actor): Promise<z.infer<typeof MeOutput>> {
  const account = await getAccount(ctx.db, actor.accountId);
  return {
    object: 'me',
    user: { id: actor.userId, email: actor.userEmail, name: actor.userName },
    account: { id: account.id, name: account.name },
    environment: actor.environment,
    api_key: actor.apiKey
      ? {
          id: actor.apiKey.id,
          name: actor.apiKey.name,
          permission: actor.apiKey.permission,
          expires_at: actor.apiKey.expiresAt?.toISOString() ?? null,
        }
      : null,
  };
}

async function toCreditsDto(ctx: Ctx, actor: Actor): Promise<z.infer<typeof CreditsOutput>> {
  const credits = await getCredits(ctx.db, actor.accountId);
  return { object: 'credits', ...credits, purchase_url: `${ctx.config.PUBLIC_URL}/billing` };
}

export const accountRouter = router({
  me: actorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/me',
        tags: ['Account'],
        summary: 'Who am I: user, account, environment and key',
      },
    })
    .input(EmptyInput)
    .output(MeOutput)
    .query(({ ctx }) => toMeDto(ctx, ctx.actor)),

  credits: actorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/credits',
        tags: ['Account'],
        summary: 'Credit balance and whether sending is possible',
      },
    })
    .input(EmptyInput)
    .output(CreditsOutput)
    .query(({ ctx }) => toCreditsDto(ctx, ctx.actor)),

  get: actorProcedure
    .meta({
      mcp: {
        tool: 'get_account',
        title: 'Get account',
        scope: 'read',
        description:
          "Returns the signed-in user, the account, the environment (live or test), the API key details and the credit balance (same fields as GET /me plus `credits` as GET /credits), and the account's `brands` (id, name, is_default): send_signature_request takes one's id as `brand_id`.",
      },
    })
    .input(EmptyInput)
    .output(AccountOutput)
    .query(async ({ ctx }) => ({
      ...(await toMeDto(ctx, ctx.actor)),
      credits: await toCreditsDto(ctx, ctx.actor),
      brands: (await listBrands(ctx.db, scopeOf(ctx.actor), { limit: 100 })).data.map((b) => ({
        id: b.id,
        name: b.name,
        is_default: b.is_default,
      })),
    })),
});
