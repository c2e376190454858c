import {
  AccountLanguageInput,
  AccountLanguageOutput,
  ChangeRoleInput,
  InviteMemberInput,
  MemberIdInput,
  UpdateAccountInput,
} from '../contracts/members.ts';
import { getAccountLanguage, renameAccount, setAccountLanguage } from '../services/accounts.ts';
import {
  changeMemberRole,
  inviteMember,
  listMembers,
  removeMember,
  revokeInvitation,
} from '../services/sessions/members.ts';
import { actorProcedure, adminProcedure, router } from '../trpc.ts';

/** The team page (README, "Dashboard"): everyone sees the members; only admins change them. */
export const membersRouter = router({
  list: actorProcedure.query(({ ctx }) => listMembers(ctx.db, ctx.actor.accountId, ctx.now())),

  invite: adminProcedure
    .input(InviteMemberInput)
    .mutation(({ ctx, input }) => inviteMember(ctx, ctx.actor, input)),

  revokeInvitation: adminProcedure.input(MemberIdInput).mutation(async ({ ctx, input }) => {
    await revokeInvitation(ctx, ctx.actor, input.id);
    return { id: input.id, revoked: true as const };
  }),

  changeRole: adminProcedure
    .input(ChangeRoleInput)
    .mutation(({ ctx, input }) => changeMemberRole(ctx, ctx.actor, input)),

  remove: adminProcedure.input(MemberIdInput).mutation(async ({ ctx, input }) => {
    await removeMember(ctx, ctx.actor, input.id);
    return { id: input.id, removed: true as const };
  }),

  /** The language signers read when neither their signer nor the request names one. */
  language: actorProcedure
    .output(AccountLanguageOutput)
    .query(async ({ ctx }) => ({ default_locale: await getAccountLanguage(ctx.db, ctx.actor.accountId) })),

  setLanguage: adminProcedure
    .input(AccountLanguageInput)
    .output(AccountLanguageOutput)
    .mutation(({ ctx, input }) => setAccountLanguage(ctx, ctx.actor, input.default_locale)),

  /** Renames the account (its name is the sender shown in invitation emails). */
  updateAccount: adminProcedure
    .input(UpdateAccountInput)
    .mutation(({ ctx, input }) => renameAccount(ctx, ctx.actor, input.name)),
});
