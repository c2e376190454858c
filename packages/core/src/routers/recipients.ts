import {
  CcTokenInput,
  CcViewOutput,
  RecipientDefaultsInput,
  RecipientDefaultsOutput,
} from '../contracts/recipients.ts';
import { getRecipientDefaults, setRecipientDefaults, viewAsCc } from '../services/signature-requests/cc.ts';
import { actorProcedure, adminProcedure, publicProcedure, router } from '../trpc.ts';

/**
 * Issue 34 (docs/sending.md, "CC and completion notices"): the account's default CC and notify
 * addresses (dashboard Account page; admins change them) and the read-only page a CC link opens
 * (`/cc/{token}`). Dashboard and page only: no REST route or MCP tool (the request's own `cc` and
 * `notify` are fields of POST /signature_requests and send_signature_request).
 */
export const recipientsRouter = router({
  defaults: actorProcedure
    .output(RecipientDefaultsOutput)
    .query(({ ctx }) => getRecipientDefaults(ctx, ctx.actor)),

  setDefaults: adminProcedure
    .input(RecipientDefaultsInput)
    .output(RecipientDefaultsOutput)
    .mutation(({ ctx, input }) => setRecipientDefaults(ctx, ctx.actor, input)),

  view: publicProcedure
    .input(CcTokenInput)
    .output(CcViewOutput)
    .query(({ ctx, input }) => viewAsCc(ctx, input.token)),
});
