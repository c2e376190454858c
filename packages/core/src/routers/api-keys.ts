import { ApiKeyIdInput, CreateApiKeyInput } from '../contracts/api-keys.ts';
import {
  createAccountApiKey,
  listAccountApiKeys,
  revokeAccountApiKey,
} from '../services/dashboard/api-keys.ts';
import { adminProcedure, adminReadProcedure, router } from '../trpc.ts';

/**
 * API keys are created and revoked in the dashboard (spec, Authentication 2), by admins only.
 * No `openapi`/`mcp` meta: there is no API operation for this.
 */
export const apiKeysRouter = router({
  list: adminReadProcedure.query(({ ctx }) => listAccountApiKeys(ctx.db, ctx.actor.accountId)),

  /** The secret is in this response and never again. */
  create: adminProcedure
    .input(CreateApiKeyInput)
    .mutation(({ ctx, input }) => createAccountApiKey(ctx, ctx.actor, input)),

  revoke: adminProcedure
    .input(ApiKeyIdInput)
    .mutation(({ ctx, input }) => revokeAccountApiKey(ctx, ctx.actor, input.id)),
});
