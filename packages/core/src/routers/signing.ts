import type { Ctx } from '../context.ts';
import { DelegateInput, DelegateOutput } from '../contracts/delegation.ts';
import {
  CompleteInput,
  CompleteOutput,
  DeclineInput,
  DeclineOutput,
  FinishPartInput,
  FinishPartOutput,
  RequestCodeOutput,
  SaveValuesInput,
  SaveValuesOutput,
  SetLocaleInput,
  SetLocaleOutput,
  SigningOpenOutput,
  SigningTokenInput,
  VerifyCodeInput,
  VerifyCodeOutput,
} from '../contracts/signing.ts';
import { delegateSigning } from '../services/signing/delegation.ts';
import {
  completeSigning,
  declineSigning,
  finishPart,
  openSigning,
  requestSigningCode,
  type SignerCtx,
  saveSigningValues,
  setSigningLocale,
  verifySigningCode,
} from '../services/signing/index.ts';
import { publicProcedure, router } from '../trpc.ts';

const sc = (ctx: Ctx): SignerCtx => ({
  db: ctx.db,
  config: ctx.config,
  logger: ctx.logger,
  deps: ctx.deps,
  now: ctx.now(),
  ip: ctx.ip,
  userAgent: ctx.userAgent,
  acceptLanguage: ctx.acceptLanguage,
  web: ctx.web,
});

/** The signing page's procedures: public, authenticated by the signer's token. */
export const signingRouter = router({
  open: publicProcedure
    .input(SigningTokenInput)
    .output(SigningOpenOutput)
    .query(({ ctx, input }) => openSigning(sc(ctx), input.token, input)),

  requestCode: publicProcedure
    .input(SigningTokenInput)
    .output(RequestCodeOutput)
    .mutation(({ ctx, input }) => requestSigningCode(sc(ctx), input.token)),

  verifyCode: publicProcedure
    .input(VerifyCodeInput)
    .output(VerifyCodeOutput)
    .mutation(({ ctx, input }) => verifySigningCode(sc(ctx), input.token, input.code)),

  saveValues: publicProcedure
    .input(SaveValuesInput)
    .output(SaveValuesOutput)
    .mutation(({ ctx, input }) => saveSigningValues(sc(ctx), input)),

  complete: publicProcedure
    .input(CompleteInput)
    .output(CompleteOutput)
    .mutation(({ ctx, input }) => completeSigning(sc(ctx), input)),

  decline: publicProcedure
    .input(DeclineInput)
    .output(DeclineOutput)
    .mutation(({ ctx, input }) => declineSigning(sc(ctx), input)),

  // Issue 47: an approver approves (or rejects with a reason); a viewer acknowledges having read.
  approve: publicProcedure
    .input(FinishPartInput)
    .output(FinishPartOutput)
    .mutation(({ ctx, input }) => finishPart(sc(ctx), input, 'approver')),

  reject: publicProcedure
    .input(DeclineInput)
    .output(DeclineOutput)
    .mutation(({ ctx, input }) => declineSigning(sc(ctx), input, 'rejected')),

  acknowledge: publicProcedure
    .input(FinishPartInput)
    .output(FinishPartOutput)
    .mutation(({ ctx, input }) => finishPart(sc(ctx), input, 'viewer')),

  // Issue 32: the language the signer switched to on the page becomes theirs.
  setLocale: publicProcedure
    .input(SetLocaleInput)
    .output(SetLocaleOutput)
    .mutation(({ ctx, input }) => setSigningLocale(sc(ctx), input)),

  // Issue 34.3: hand the turn to someone else (requests sent with allow_delegation).
  delegate: publicProcedure
    .input(DelegateInput)
    .output(DelegateOutput)
    .mutation(({ ctx, input }) => delegateSigning(sc(ctx), input)),
});
