import { scopeOf } from '../context.ts';
import {
  CreateSignatureRequestInput,
  IdInput,
  ListSignatureRequestsInput,
  ReminderOutput,
  SignatureRequestListOutput,
  SignatureRequestOutput,
} from '../contracts/signature-requests.ts';
import {
  cancelSignatureRequest,
  createSignatureRequest,
  getSignatureRequest,
  listSignatureRequests,
  remindSigners,
} from '../services/signature-requests/index.ts';
import { actorProcedure, router, writeProcedure } from '../trpc.ts';

const tags = ['Signature requests'];

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
        title: 'List signature requests',
        scope: 'read',
        description:
          'Lists signature requests newest first with their signers (no values). Filters: template_id, q (signer name/email/phone), status (open = sent or in_progress, expired, sent, in_progress, completed, declined, canceled).',
      },
    })
    .input(ListSignatureRequestsInput)
    .output(SignatureRequestListOutput)
    .query(({ ctx, input }) => listSignatureRequests(ctx, scopeOf(ctx.actor), input)),

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
        title: 'Get signature request',
        scope: 'read',
        description:
          'Returns one signature request: status, every signer with progress and values, and once completed the signed documents, audit trail and combined PDF links.',
      },
    })
    .input(IdInput)
    .output(SignatureRequestOutput)
    .query(({ ctx, input }) => getSignatureRequest(ctx, scopeOf(ctx.actor), input.id)),

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
        title: 'Send signature request',
        required: ['signers'],
        hints: { openWorld: true },
        scope: 'write',
        description:
          'Sends a template to signers. signers: [{role?, name?, email or phone, prefill?: {fieldName: value}, delivery?, ...}] — roles are filled in template order when omitted. A signer with only a phone (international format) is invited by SMS; delivery (per signer or for the request) email, sms or email_and_sms chooses the channels of signers who have both. signing_order sequential (default) or parallel; send_email false returns signing_url links to share yourself. Uses a credit when first completed.',
      },
    })
    .input(CreateSignatureRequestInput)
    .output(SignatureRequestOutput)
    .mutation(({ ctx, input }) => createSignatureRequest(ctx, ctx.actor, { input, source: ctx.source })),

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
        title: 'Cancel signature request',
        hints: { destructive: true, idempotent: true },
        scope: 'write',
        description:
          'Cancels an unfinished signature request; signing links stop working. Canceling a canceled request returns it unchanged.',
      },
    })
    .input(IdInput)
    .output(SignatureRequestOutput)
    .mutation(({ ctx, input }) => cancelSignatureRequest(ctx, ctx.actor, input.id)),

  remind: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/signature_requests/{id}/remind',
        tags,
        summary: 'Email (or text) the signing link again to invited, unfinished signers (once per hour)',
      },
      idempotent: true,
      errors: ['already_completed', 'not_open', 'nothing_to_remind', 'remind_too_soon'],
      mcp: {
        tool: 'remind_signers',
        title: 'Remind signers',
        hints: { openWorld: true },
        scope: 'write',
        description:
          'Emails the signing link again to every invited signer who has not signed or declined and has an email, or texts it to those reached by SMS. At most once per hour per request.',
      },
    })
    .input(IdInput)
    .output(ReminderOutput)
    .mutation(({ ctx, input }) => remindSigners(ctx, ctx.actor, input.id)),
});
