import type { Ctx } from '../context.ts';
import { CodeInput, SecondStepRuleInput } from '../contracts/auth.ts';
import { accountSecondStepRule, setSecondStepRule } from '../services/sessions/second-step-rule.ts';
import {
  confirmTotpEnrolment,
  removeTotp,
  renewRecoveryCodes,
  startTotpEnrolment,
  type TotpUser,
  twoStepStatus,
} from '../services/sessions/totp-enrolment.ts';
import { adminProcedure, router, sessionProcedure } from '../trpc.ts';

// The signed-in user's own second step (issue 45; account page). Dashboard sessions only: no
// `openapi`/`mcp` meta.

const userOf = (ctx: Ctx & { actor: NonNullable<Ctx['actor']> }): TotpUser => ({
  userId: ctx.actor.userId,
  accountId: ctx.actor.accountId,
  email: ctx.actor.userEmail,
  meta: { ip: ctx.ip, userAgent: ctx.userAgent },
  sessionId: ctx.actor.sessionId,
});

/** A session that must still set up its second step may call these (issue 45 item 2). */
const enrolProcedure = sessionProcedure.meta({ duringEnrolment: true });

export const twoStepRouter = router({
  status: enrolProcedure.query(({ ctx }) => twoStepStatus(ctx, ctx.actor.userId)),

  /** A new seed: its QR code and key, until the first code confirms it. */
  startTotp: enrolProcedure.mutation(({ ctx }) => startTotpEnrolment(ctx, userOf(ctx))),

  /** The first code turns the app on; the ten recovery codes are in this answer only. */
  confirmTotp: enrolProcedure
    .input(CodeInput)
    .mutation(({ ctx, input }) => confirmTotpEnrolment(ctx, userOf(ctx), input.code)),

  /** Needs a fresh code from the app or a recovery code. */
  removeTotp: sessionProcedure
    .input(CodeInput)
    .mutation(({ ctx, input }) => removeTotp(ctx, userOf(ctx), input.code)),

  /** Whether the account requires a second step of every member. */
  accountRule: sessionProcedure.query(({ ctx }) => accountSecondStepRule(ctx, ctx.actor.accountId)),

  /** Admins: require a second step of every member, or stop requiring it. */
  setAccountRule: adminProcedure
    .input(SecondStepRuleInput)
    .mutation(({ ctx, input }) => setSecondStepRule(ctx, ctx.actor, input.required)),

  /** Needs a fresh code from the app or a recovery code; the old recovery codes stop working. */
  renewRecoveryCodes: sessionProcedure
    .input(CodeInput)
    .mutation(({ ctx, input }) => renewRecoveryCodes(ctx, userOf(ctx), input.code)),
});
