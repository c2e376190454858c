import { scopeOf } from '../context.ts';
import {
  BulkPreviewOutput,
  BulkSendIdInput,
  BulkSendOutput,
  BulkSendRowsOutput,
  BulkUploadInput,
} from '../contracts/bulk-sends.ts';
import {
  createBulkSend,
  getBulkSend,
  listBulkSendRows,
  previewBulkSend,
  resumeBulkSend,
} from '../services/bulk/index.ts';
import { actorProcedure, router, writeProcedure } from '../trpc.ts';

const tags = ['Bulk sends'];

/**
 * Bulk sends (source `bulk`, docs/sending.md): one template to every row of a CSV or XLSX file.
 * REST operations beyond the specification; no MCP tool (the specification fixes the 18 tools).
 */
export const bulkSendsRouter = router({
  preview: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/bulk_sends/preview',
        tags,
        summary: 'Check a file and mapping; first rows with their errors',
      },
      request: { body: 'bulk_file' },
      errors: ['not_found', 'invalid_request', 'template_has_no_fields', 'template_archived'],
    })
    .input(BulkUploadInput)
    .output(BulkPreviewOutput)
    .mutation(({ ctx, input }) => previewBulkSend(ctx, ctx.actor, input)),

  create: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/bulk_sends',
        tags,
        summary: 'Send a template to every row of a CSV or XLSX file',
      },
      request: { body: 'bulk_file' },
      successStatus: 201,
      idempotent: true,
      errors: [
        'insufficient_credits',
        'not_found',
        'invalid_request',
        'template_has_no_fields',
        'template_archived',
      ],
    })
    .input(BulkUploadInput)
    .output(BulkSendOutput)
    .mutation(({ ctx, input }) => createBulkSend(ctx, ctx.actor, { ...input, source: ctx.source })),

  get: actorProcedure
    .meta({ openapi: { method: 'GET', path: '/bulk_sends/{id}', tags, summary: "A bulk send's progress" } })
    .input(BulkSendIdInput)
    .output(BulkSendOutput)
    .query(({ ctx, input }) => getBulkSend(ctx, scopeOf(ctx.actor), input.id)),

  rows: actorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/bulk_sends/{id}/rows',
        tags,
        summary: "Every row's outcome, in file order",
      },
    })
    .input(BulkSendIdInput)
    .output(BulkSendRowsOutput)
    .query(({ ctx, input }) => listBulkSendRows(ctx, scopeOf(ctx.actor), input.id)),

  resume: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/bulk_sends/{id}/resume',
        tags,
        summary: 'Send the rows left when a bulk send stopped',
      },
      idempotent: true,
      errors: ['insufficient_credits'],
    })
    .input(BulkSendIdInput)
    .output(BulkSendOutput)
    .mutation(({ ctx, input }) => resumeBulkSend(ctx, ctx.actor, input.id)),
});
