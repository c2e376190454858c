import type { Ctx, WebSession } from '../context.ts';
import {
  AcceptInvitationInput,
  EmailInput,
  ResetPasswordInput,
  SecondStepInput,
  SignInInput,
  SignInLinkInput,
  SignUpInput,
  TokenInput,
} from '../contracts/auth.ts';
import { getAccount } from '../services/accounts.ts';
import { acceptInvitation, describeInvitation } from '../services/sessions/members.ts';
import { completeSecondStep, type SignInOutcome } from '../services/sessions/second-step.ts';
import {
  type NewSession,
  revokeSession,
  type SessionMeta,
  sessionCsrfToken,
} from '../services/sessions/sessions.ts';
import {
  requestEmailLink,
  resetPassword,
  signInWithLink,
  signInWithPassword,
  signUp,
} from '../services/sessions/sign-in.ts';
import { publicProcedure, router, webProcedure } from '../trpc.ts';

// Dashboard sign-in (README, "Dashboard"). Only the web adapter can run the `webProcedure`s: they
// write the session cookie through ctx.web. No `openapi`/`mcp` meta: they are not part of the REST
// API or MCP.

const metaOf = (ctx: Ctx): SessionMeta => ({ ip: ctx.ip, userAgent: ctx.userAgent });

function startSession(ctx: { web: WebSession }, session: NewSession) {
  ctx.web.setCookie(session.token, session.expiresAt);
  return { signed_in: true as const };
}

/**
 * A first step's outcome: the session cookie, or (a user with a second step) no cookie and the
 * challenge the page sends back with the code to `auth.completeSecondStep`.
 */
function afterFirstStep(ctx: { web: WebSession }, outcome: SignInOutcome) {
  if (outcome.kind === 'session') return startSession(ctx, outcome.session);
  return {
    signed_in: false as const,
    second_step: {
      token: outcome.token,
      expires_at: outcome.expiresAt.toISOString(),
      /** Which second steps the user can give: `totp` (an app code or a recovery code), `passkey`. */
      methods: outcome.methods,
    },
  };
}

export const authRouter = router({
  /** Who is signed in on this browser (null when nobody), and the CSRF token for changes. */
  session: publicProcedure.query(async ({ ctx }) => {
    const actor = ctx.actor?.kind === 'session' && ctx.actor.sessionId ? ctx.actor : null;
    if (!actor?.sessionId) return { session: null, signup_enabled: ctx.config.SIGNUP_ENABLED };
    const account = await getAccount(ctx.db, actor.accountId);
    return {
      signup_enabled: ctx.config.SIGNUP_ENABLED,
      session: {
        id: actor.sessionId,
        csrf_token: await sessionCsrfToken(ctx.db, actor.sessionId),
        environment: actor.environment,
        /** Issue 45: the account requires a second step and this session has none yet: set one up first. */
        second_step_required: actor.secondStepRequired === true,
        user: { id: actor.userId, email: actor.userEmail, name: actor.userName, role: actor.userRole },
        account: { id: account.id, name: account.name },
      },
    };
  }),

  signIn: webProcedure.input(SignInInput).mutation(async ({ ctx, input }) => {
    return afterFirstStep(ctx, await signInWithPassword(ctx, input, metaOf(ctx)));
  }),

  /** The second step: a code from the authenticator app or a recovery code opens the session. */
  completeSecondStep: webProcedure.input(SecondStepInput).mutation(async ({ ctx, input }) => {
    return startSession(ctx, await completeSecondStep(ctx, input, metaOf(ctx)));
  }),

  /** Emails a one-time sign-in link; the answer is the same whether the address is known or not. */
  requestSignInLink: webProcedure.input(SignInLinkInput).mutation(async ({ ctx, input }) => {
    await requestEmailLink(ctx, { purpose: 'sign_in', email: input.email, next: input.next }, metaOf(ctx));
    return { sent: true as const };
  }),

  signInWithLink: webProcedure.input(TokenInput).mutation(async ({ ctx, input }) => {
    return afterFirstStep(ctx, await signInWithLink(ctx, input.token, metaOf(ctx)));
  }),

  requestPasswordReset: webProcedure.input(EmailInput).mutation(async ({ ctx, input }) => {
    await requestEmailLink(ctx, { purpose: 'password_reset', email: input.email }, metaOf(ctx));
    return { sent: true as const };
  }),

  resetPassword: webProcedure.input(ResetPasswordInput).mutation(async ({ ctx, input }) => {
    return afterFirstStep(ctx, await resetPassword(ctx, input, metaOf(ctx)));
  }),

  signUp: webProcedure.input(SignUpInput).mutation(async ({ ctx, input }) => {
    const session = await signUp(
      ctx,
      { email: input.email, password: input.password, name: input.name, accountName: input.account_name },
      metaOf(ctx),
    );
    return startSession(ctx, session);
  }),

  invitation: publicProcedure
    .input(TokenInput)
    .query(({ ctx, input }) => describeInvitation(ctx.db, input.token, ctx.now())),

  acceptInvitation: webProcedure.input(AcceptInvitationInput).mutation(async ({ ctx, input }) => {
    return startSession(ctx, await acceptInvitation(ctx, input, metaOf(ctx)));
  }),

  /** Ends this browser's session (the row is revoked, so the cookie is worthless in every process). */
  signOut: webProcedure.mutation(async ({ ctx }) => {
    if (ctx.actor?.kind === 'session' && ctx.actor.sessionId) {
      await revokeSession(
        ctx,
        { userId: ctx.actor.userId, sessionId: ctx.actor.sessionId },
        ctx.actor.sessionId,
      );
    }
    ctx.web.clearCookie();
    return { signed_in: false as const };
  }),
});
