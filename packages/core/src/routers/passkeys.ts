import type { Ctx, WebSession } from '../context.ts';
import {
  FinishPasskeyRegistrationInput,
  PasskeyIdInput,
  PasskeySecondStepInput,
  PasskeySignInInput,
  RenamePasskeyInput,
  TokenInput,
} from '../contracts/auth.ts';
import {
  completePasskeySecondStep,
  signInWithPasskey,
  startPasskeySecondStep,
} from '../services/sessions/passkey-sign-in.ts';
import {
  finishPasskeyRegistration,
  listUserPasskeys,
  type PasskeyUser,
  removeUserPasskey,
  renameUserPasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from '../services/sessions/passkeys.ts';
import type { NewSession } from '../services/sessions/sessions.ts';
import { router, sessionProcedure, webProcedure } from '../trpc.ts';

// Passkeys (issue 45 item 2): the signed-in user's own (account page), and signing in with one
// (sign-in page). Dashboard only: no `openapi`/`mcp` meta.

const userOf = (
  ctx: Ctx & { actor: NonNullable<Ctx['actor']> },
): PasskeyUser & { sessionId: number | null } => ({
  userId: ctx.actor.userId,
  accountId: ctx.actor.accountId,
  email: ctx.actor.userEmail,
  name: ctx.actor.userName,
  meta: { ip: ctx.ip, userAgent: ctx.userAgent },
  sessionId: ctx.actor.sessionId ?? null,
});

const metaOf = (ctx: Ctx) => ({ ip: ctx.ip, userAgent: ctx.userAgent });

function startSession(ctx: { web: WebSession }, session: NewSession) {
  ctx.web.setCookie(session.token, session.expiresAt);
  return { signed_in: true as const };
}

/** A session that must still set up its second step may register a passkey as that step. */
const enrolProcedure = sessionProcedure.meta({ duringEnrolment: true });

export const passkeysRouter = router({
  list: enrolProcedure.query(({ ctx }) => listUserPasskeys(ctx, ctx.actor.userId)),

  /** Options for the browser's `navigator.credentials.create()`, and the ticket to send back. */
  startRegistration: enrolProcedure.mutation(({ ctx }) => startPasskeyRegistration(ctx, userOf(ctx))),

  finishRegistration: enrolProcedure
    .input(FinishPasskeyRegistrationInput)
    .mutation(({ ctx, input }) => finishPasskeyRegistration(ctx, userOf(ctx), input)),

  rename: sessionProcedure
    .input(RenamePasskeyInput)
    .mutation(({ ctx, input }) => renameUserPasskey(ctx, userOf(ctx), input)),

  remove: sessionProcedure
    .input(PasskeyIdInput)
    .mutation(({ ctx, input }) => removeUserPasskey(ctx, userOf(ctx), input.id)),

  /** Sign-in page: options for `navigator.credentials.get()` with any passkey of this site. */
  startSignIn: webProcedure.mutation(({ ctx }) => startPasskeySignIn(ctx)),

  /** A passkey alone signs in. */
  signIn: webProcedure.input(PasskeySignInInput).mutation(async ({ ctx, input }) => {
    return startSession(ctx, await signInWithPasskey(ctx, input, metaOf(ctx)));
  }),

  /** After the first step: options for one of the user's passkeys. */
  startSecondStep: webProcedure
    .input(TokenInput)
    .mutation(({ ctx, input }) => startPasskeySecondStep(ctx, input.token)),

  /** The second step with a passkey opens the session. */
  completeSecondStep: webProcedure.input(PasskeySecondStepInput).mutation(async ({ ctx, input }) => {
    return startSession(ctx, await completePasskeySecondStep(ctx, input, metaOf(ctx)));
  }),
});
