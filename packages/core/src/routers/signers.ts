import { scopeOf } from '../context.ts';
import { SignerIdInput, SignerOutput, UpdateSignerInput } from '../contracts/signature-requests.ts';
import { HostedSessionOutput } from '../contracts/signing.ts';
import { getSigner, updateSigner } from '../services/signature-requests/index.ts';
import { startHostedSigning } from '../services/signing/hosted.ts';
import { actorProcedure, router, writeProcedure } from '../trpc.ts';

const tags = ['Signers'];

export const signersRouter = router({
  /**
   * Issue 47, in-person signing: the signed-in dashboard user hosts this signer on their own
   * device (dashboard only: no REST path or MCP tool, the device is the browser that asks).
   */
  host: writeProcedure
    .input(SignerIdInput)
    .output(HostedSessionOutput)
    .mutation(({ ctx, input }) => startHostedSigning(ctx, scopeOf(ctx.actor), input.id)),

  get: actorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/signers/{id}',
        tags,
        summary: 'Get a signer with values and, once signed, documents',
      },
    })
    .input(SignerIdInput)
    .output(SignerOutput)
    .query(({ ctx, input }) => getSigner(ctx, scopeOf(ctx.actor), input.id)),

  update: writeProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/signers/{id}',
        tags,
        summary: 'Correct a signer, merge prefill, or resend the link (PUT is an alias)',
      },
      errors: ['signer_finished', 'not_open', 'remind_too_soon', 'invalid_request'],
      mcp: {
        tool: 'update_signer',
        title: 'Update signer',
        hints: { destructive: true, openWorld: true },
        scope: 'write',
        description:
          'Changes only the keys sent: name, email, phone, external_id, metadata (replaces), prefill (merged). resend: true sends the link again, by email or SMS as the signer is reached (at most every 10 minutes). A phone is stored in E.164; an impossible number is invalid_parameter. The signer must keep an email or a phone.',
      },
    })
    .input(UpdateSignerInput)
    .output(SignerOutput)
    .mutation(({ ctx, input }) => {
      const { id, ...patch } = input;
      return updateSigner(ctx, ctx.actor, { id, input: patch });
    }),
});
