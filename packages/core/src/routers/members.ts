import type { Ctx } from '../context.ts';
import {
  ChangeRoleInput,
  InviteMemberInput,
  MemberIdInput,
  UpdateAccountInput,
} from '../contracts/members.ts';
import { sendMailNow } from '../services/mail.ts';
import {
  changeMemberRole,
  inviteMember,
  listMembers,
  removeMember,
  revokeInvitation,
} from '../services/sessions/members.ts';
import { actorProcedure, adminProcedure, router } from '../trpc.ts';

const jobCtx = (ctx: Ctx) => ({
  db: ctx.db,
  logger: ctx.logger,
  config: ctx.config,
  deps: ctx.deps,
  now: ctx.now,
});

/** The team page (README, "Dashboard"): everyone sees the members; only admins change them. */
export const membersRouter = router({
  list: actorProcedure.query(async ({ ctx }) => {
    const account = await ctx.db
      .selectFrom('accounts')
      .select(['id', 'name'])
      .where('id', '=', ctx.actor.accountId)
      .executeTakeFirstOrThrow();
    return { account, ...(await listMembers(ctx.db, ctx.actor.accountId, ctx.now())) };
  }),

  invite: adminProcedure.input(InviteMemberInput).mutation(async ({ ctx, input }) => {
    const { invitation, mailId } = await inviteMember(ctx.db, ctx.actor, input, ctx.config, ctx.now());
    await sendMailNow(jobCtx(ctx), [mailId]);
    return invitation;
  }),

  revokeInvitation: adminProcedure.input(MemberIdInput).mutation(async ({ ctx, input }) => {
    await revokeInvitation(ctx.db, ctx.actor.accountId, input.id, ctx.now());
    return { id: input.id, revoked: true as const };
  }),

  changeRole: adminProcedure
    .input(ChangeRoleInput)
    .mutation(({ ctx, input }) =>
      changeMemberRole(ctx.db, ctx.actor.accountId, input.id, input.role, ctx.now()),
    ),

  remove: adminProcedure.input(MemberIdInput).mutation(async ({ ctx, input }) => {
    await removeMember(ctx.db, ctx.actor.accountId, input.id, ctx.now());
    return { id: input.id, removed: true as const };
  }),

  /** Renames the account (its name is the sender shown in invitation emails). */
  updateAccount: adminProcedure
    .input(UpdateAccountInput)
    .mutation(async ({ ctx, input }) =>
      ctx.db
        .updateTable('accounts')
        .set({ name: input.name, updated_at: ctx.now() })
        .where('id', '=', ctx.actor.accountId)
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow(),
    ),
});
