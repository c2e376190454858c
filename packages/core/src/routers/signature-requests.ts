import type { Ctx } from '../context.ts';
import { scopeOf } from '../context.ts';
import { sendMailNow } from '../services/mail.ts';
import {
  cancelSignatureRequest,
  createSignatureRequest,
  listSignatureRequests,
  remindSigners,
  requireRequest,
  toSignatureRequestDto,
} from '../services/signature-requests.ts';
import { actorProcedure, router, writeProcedure } from '../trpc.ts';
import {
  CreateSignatureRequestInput,
  IdInput,
  ListSignatureRequestsInput,
  ReminderOutput,
  SignatureRequestListOutput,
  SignatureRequestOutput,
} from './signature-requests.schemas.ts';

const tags = ['Signature requests'];
const dto = (ctx: Ctx, withValues = true) => ({ config: ctx.config, now: ctx.now(), withValues });
const jobCtx = (ctx: Ctx) => ({
  db: ctx.db,
  logger: ctx.logger,
  config: ctx.config,
  deps: ctx.deps,
  now: ctx.now,
});

/** Invitations queued by the transaction go out right after commit, within a short bound; the worker sends the rest. */
async function sendQueuedInvitations(ctx: Ctx, requestId: number) {
  const mail = await ctx.db
    .selectFrom('mail_outbox')
    .innerJoin('signers', 'signers.id', 'mail_outbox.signer_id')
    .select('mail_outbox.id')
    .where('signers.signature_request_id', '=', requestId)
    .where('mail_outbox.status', '=', 'queued')
    .execute();
  if (mail.length)
    await sendMailNow(
      jobCtx(ctx),
      mail.map((m) => m.id),
    );
}

export const signatureRequestsRouter = router({
  list: actorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/signature_requests',
        tags,
        summary: 'List signature requests, newest first',
      },
      mcp: {
        tool: 'list_signature_requests',
        scope: 'read',
        description:
          'Lists signature requests newest first with their signers (no values). Filters: template_id, q (signer name/email/phone), status (open = sent or in_progress, expired, sent, in_progress, completed, declined, canceled).',
      },
    })
    .input(ListSignatureRequestsInput)
    .output(SignatureRequestListOutput)
    .query(async ({ ctx, input }) => {
      const page = await listSignatureRequests(ctx.db, scopeOf(ctx.actor), input, ctx.now());
      return {
        object: 'list' as const,
        data: await Promise.all(page.rows.map((r) => toSignatureRequestDto(ctx.db, r, dto(ctx, false)))),
        has_more: page.hasMore,
        next_cursor: page.nextCursor,
      };
    }),

  get: actorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/signature_requests/{id}',
        tags,
        summary: 'Get a signature request with every signer, values and, once completed, documents',
      },
      mcp: {
        tool: 'get_signature_request',
        scope: 'read',
        description:
          'Returns one signature request: status, every signer with progress and values, and once completed the signed documents, audit trail and combined PDF links.',
      },
    })
    .input(IdInput)
    .output(SignatureRequestOutput)
    .query(async ({ ctx, input }) =>
      toSignatureRequestDto(ctx.db, await requireRequest(ctx.db, scopeOf(ctx.actor), input.id), dto(ctx)),
    ),

  create: writeProcedure
    .meta({
      openapi: { method: 'POST', path: '/signature_requests', tags, summary: 'Send a template to signers' },
      successStatus: 201,
      idempotent: true,
      inputErrors: { signers: 'invalid_signer' },
      errors: [
        'insufficient_credits',
        'not_found',
        'template_has_no_fields',
        'template_archived',
        'missing_signers',
        'invalid_request',
      ],
      mcp: {
        tool: 'send_signature_request',
        scope: 'write',
        description:
          'Sends a template to signers. signers: [{role?, name?, email or phone, prefill?: {fieldName: value}, ...}] — roles are filled in template order when omitted. signing_order sequential (default) or parallel; send_email false returns signing_url links to share yourself. Uses a credit when first completed.',
      },
    })
    .input(CreateSignatureRequestInput)
    .output(SignatureRequestOutput)
    .mutation(async ({ ctx, input }) => {
      const row = await createSignatureRequest(ctx.db, ctx.actor, input, {
        deps: ctx.deps,
        config: ctx.config,
        source: ctx.source,
        now: ctx.now(),
      });
      await sendQueuedInvitations(ctx, row.id);
      return toSignatureRequestDto(
        ctx.db,
        await requireRequest(ctx.db, scopeOf(ctx.actor), row.id),
        dto(ctx),
      );
    }),

  cancel: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/signature_requests/{id}/cancel',
        tags,
        summary: 'Cancel a signature request (idempotent on canceled)',
      },
      idempotent: true,
      errors: ['already_completed', 'not_open'],
      mcp: {
        tool: 'cancel_signature_request',
        scope: 'write',
        description:
          'Cancels an unfinished signature request; signing links stop working. Canceling a canceled request returns it unchanged.',
      },
    })
    .input(IdInput)
    .output(SignatureRequestOutput)
    .mutation(async ({ ctx, input }) => {
      const row = await ctx.db
        .transaction()
        .execute((tx) => cancelSignatureRequest(tx, ctx.actor, input.id, ctx.now()));
      return toSignatureRequestDto(ctx.db, row, dto(ctx));
    }),

  remind: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/signature_requests/{id}/remind',
        tags,
        summary: 'Email the signing link again to invited, unfinished signers (once per hour)',
      },
      idempotent: true,
      errors: ['already_completed', 'not_open', 'nothing_to_remind', 'remind_too_soon'],
      mcp: {
        tool: 'remind_signers',
        scope: 'write',
        description:
          'Emails the signing link again to every invited signer who has not signed or declined and has an email. At most once per hour per request.',
      },
    })
    .input(IdInput)
    .output(ReminderOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.db
        .transaction()
        .execute((tx) => remindSigners(tx, ctx.actor, input.id, ctx.config, ctx.now()));
      await sendQueuedInvitations(ctx, input.id);
      return result;
    }),
});
