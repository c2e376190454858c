import type { Ctx } from '../context.ts';
import { CodeInput } from '../contracts/auth.ts';
import {
  confirmTotpEnrolment,
  removeTotp,
  renewRecoveryCodes,
  startTotpEnrolment,
  type TotpUser,
  twoStepStatus,
} from '../services/sessions/totp-enrolment.ts';
import { router, sessionProcedure } from '../trpc.ts';

// The signed-in user's own second step (issue 45; account page). Dashboard sessions only: no
// `openapi`/`mcp` meta.

const userOf = (ctx: Ctx & { actor: NonNullable<Ctx['actor']> }): TotpUser => ({
  userId: ctx.actor.userId,
  accountId: ctx.actor.accountId,
  email: ctx.actor.userEmail,
  meta: { ip: ctx.ip, userAgent: ctx.userAgent },
});

export const twoStepRouter = router({
  status: sessionProcedure.query(({ ctx }) => twoStepStatus(ctx, ctx.actor.userId)),

  /** A new seed: its QR code and key, until the first code confirms it. */
  startTotp: sessionProcedure.mutation(({ ctx }) => startTotpEnrolment(ctx, userOf(ctx))),

  /** The first code turns the app on; the ten recovery codes are in this answer only. */
  confirmTotp: sessionProcedure
    .input(CodeInput)
    .mutation(({ ctx, input }) => confirmTotpEnrolment(ctx, userOf(ctx), input.code)),

  /** Needs a fresh code from the app or a recovery code. */
  removeTotp: sessionProcedure
    .input(CodeInput)
    .mutation(({ ctx, input }) => removeTotp(ctx, userOf(ctx), input.code)),

  /** Needs a fresh code from the app or a recovery code; the old recovery codes stop working. */
  renewRecoveryCodes: sessionProcedure
    .input(CodeInput)
    .mutation(({ ctx, input }) => renewRecoveryCodes(ctx, userOf(ctx), input.code)),
});
