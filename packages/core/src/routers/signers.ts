import { scopeOf } from '../context.ts';
import { sendMailNow } from '../services/mail.ts';
import { requireSigner, signerDto, updateSigner } from '../services/signature-requests.ts';
import { actorProcedure, router, writeProcedure } from '../trpc.ts';
import { IdInput, SignerOutput, UpdateSignerInput } from './signature-requests.schemas.ts';

const tags = ['Signers'];

export const signersRouter = router({
  get: actorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/signers/{id}',
        tags,
        summary: 'Get a signer with values and, once signed, documents',
      },
    })
    .input(IdInput)
    .output(SignerOutput)
    .query(async ({ ctx, input }) =>
      signerDto(ctx.db, await requireSigner(ctx.db, scopeOf(ctx.actor), input.id), ctx.config, ctx.now()),
    ),

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
        scope: 'write',
        description:
          'Changes only the keys sent: name, email, phone, external_id, metadata (replaces), prefill (merged). resend: true emails the link again (at most every 10 minutes). The signer must keep an email or a phone.',
      },
    })
    .input(UpdateSignerInput)
    .output(SignerOutput)
    .mutation(async ({ ctx, input }) => {
      const { id, ...patch } = input;
      const signer = await ctx.db
        .transaction()
        .execute((tx) => updateSigner(tx, ctx.actor, id, patch, ctx.config, ctx.now()));
      if (patch.resend) {
        const mail = await ctx.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('signer_id', '=', id)
          .where('status', '=', 'queued')
          .execute();
        await sendMailNow(
          { db: ctx.db, logger: ctx.logger, config: ctx.config, deps: ctx.deps, now: ctx.now },
          mail.map((m) => m.id),
        );
      }
      return signerDto(ctx.db, signer, ctx.config, ctx.now());
    }),
});
