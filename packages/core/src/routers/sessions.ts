import {
  ChangePasswordInput,
  EnvironmentInput,
  SessionIdInput,
  UpdateProfileInput,
} from '../contracts/sessions.ts';
import { getProfile, updateUser } from '../services/accounts.ts';
import {
  listSessions,
  revokeSession,
  revokeUserSessions,
  setSessionEnvironment,
} from '../services/sessions/sessions.ts';
import { changePassword } from '../services/sessions/sign-in.ts';
import { router, sessionProcedure } from '../trpc.ts';

/** The signed-in user's own sessions, password and profile (any role; dashboard sessions only). */
export const sessionsRouter = router({
  list: sessionProcedure.query(({ ctx }) => listSessions(ctx, ctx.actor)),

  revoke: sessionProcedure.input(SessionIdInput).mutation(async ({ ctx, input }) => {
    await revokeSession(ctx, ctx.actor, input.id);
    return { id: input.id, revoked: true as const };
  }),

  /** "Sign out other sessions": every session of this user but the current one. */
  revokeOthers: sessionProcedure.mutation(async ({ ctx }) => ({
    signed_out_sessions: await revokeUserSessions(ctx.db, ctx.actor.userId, {
      keepId: ctx.actor.sessionId,
      now: ctx.now(),
    }),
  })),

  /** The live/test switch of this session. */
  setEnvironment: sessionProcedure.input(EnvironmentInput).mutation(async ({ ctx, input }) => {
    await setSessionEnvironment(ctx.db, ctx.actor.sessionId, input.environment);
    return { environment: input.environment };
  }),

  changePassword: sessionProcedure.input(ChangePasswordInput).mutation(({ ctx, input }) =>
    changePassword(ctx, {
      userId: ctx.actor.userId,
      sessionId: ctx.actor.sessionId,
      current: input.current_password,
      password: input.password,
    }),
  ),

  profile: sessionProcedure.query(({ ctx }) => getProfile(ctx.db, ctx.actor.userId)),

  updateProfile: sessionProcedure.input(UpdateProfileInput).mutation(async ({ ctx, input }) => {
    const user = await updateUser(ctx.db, ctx.actor.userEmail, {
      ...(input.name !== undefined ? { name: input.name || null } : {}),
      ...(input.billing_country !== undefined ? { billingCountry: input.billing_country || null } : {}),
      now: ctx.now(),
    });
    return { id: user.id, email: user.email, name: user.name, billing_country: user.billing_country };
  }),
});
