import type { Ctx } from '../context.ts';
import { scopeOf } from '../context.ts';
import {
  archiveTemplate,
  createTemplate,
  duplicateTemplate,
  listTemplates,
  requireTemplate,
  toTemplateDto,
  updateTemplate,
} from '../services/templates.ts';
import { actorProcedure, router, writeProcedure } from '../trpc.ts';
import {
  CreateTemplateInput,
  DuplicateTemplateInput,
  ListTemplatesInput,
  TemplateIdInput,
  TemplateListOutput,
  TemplateOutput,
  UpdateTemplateInput,
} from './templates.schemas.ts';

const tags = ['Templates'];
const dc = (ctx: Ctx) => ({ config: ctx.config, now: ctx.now() });

export const templatesRouter = router({
  list: actorProcedure
    .meta({
      openapi: { method: 'GET', path: '/templates', tags, summary: 'List templates, newest first' },
      mcp: {
        tool: 'list_templates',
        scope: 'read',
        description:
          'Lists templates newest first (archived excluded unless archived=true). Filters: q (name search), external_id, folder. Paginate with cursor = next_cursor while has_more.',
      },
    })
    .input(ListTemplatesInput)
    .output(TemplateListOutput)
    .query(async ({ ctx, input }) => {
      const page = await listTemplates(ctx.db, scopeOf(ctx.actor), input);
      return {
        object: 'list' as const,
        data: await Promise.all(
          page.rows.map((r) => toTemplateDto(ctx.db, r, dc(ctx), { withDetails: false })),
        ),
        has_more: page.hasMore,
        next_cursor: page.nextCursor,
      };
    }),

  get: actorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/templates/{id}',
        tags,
        summary: 'Get a template with roles, fields and documents',
      },
      mcp: {
        tool: 'get_template',
        scope: 'read',
        description:
          'Returns one template with its roles, fields (names are the prefill keys) and documents.',
      },
    })
    .input(TemplateIdInput)
    .output(TemplateOutput)
    .query(async ({ ctx, input }) => {
      const row = await requireTemplate(ctx.db, scopeOf(ctx.actor), input.id);
      return toTemplateDto(ctx.db, row, dc(ctx), { withDetails: true });
    }),

  create: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/templates',
        tags,
        summary: 'Create a template from documents (JSON with base64 or https URLs, or multipart/form-data)',
        contentTypes: ['application/json', 'multipart/form-data'],
      },
      successStatus: 201,
      idempotent: true,
      inputErrors: { fields: 'invalid_field' },
      errors: [
        'missing_documents',
        'too_many_documents',
        'document_too_large',
        'invalid_document',
        'invalid_file_type',
        'pdf_encrypted',
        'invalid_request',
      ],
      mcp: {
        tool: 'create_template',
        scope: 'write',
        description:
          'Creates a template from 1..10 documents (PDF or image; `file` is base64, optionally a data: URI, or an https:// URL; 25 MB each). Text tags like {{Name;role=Client;type=signature}} and fillable form fields become fields automatically; `fields` adds more (areas are fractions of the page, page is 1-based).',
      },
    })
    .input(CreateTemplateInput)
    .output(TemplateOutput)
    .mutation(async ({ ctx, input }) => {
      const { row, warnings } = await createTemplate(ctx.db, ctx.actor, input, {
        deps: ctx.deps,
        source: ctx.source,
        now: ctx.now(),
      });
      const dto = await toTemplateDto(ctx.db, row, dc(ctx), { withDetails: true });
      return warnings.length ? { ...dto, warnings } : dto;
    }),

  update: writeProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/templates/{id}',
        tags,
        summary: 'Update a template (PUT is an alias)',
      },
      inputErrors: { fields: 'invalid_field' },
      mcp: {
        tool: 'update_template',
        scope: 'write',
        description:
          'Changes only the keys sent: name, external_id (null clears), folder, roles (renamed by position; extra names add roles; never removed), fields (replaces all; [] removes all). Affects only requests sent afterwards.',
      },
    })
    .input(UpdateTemplateInput)
    .output(TemplateOutput)
    .mutation(async ({ ctx, input }) => {
      const { id, ...patch } = input;
      const row = await ctx.db
        .transaction()
        .execute((tx) => updateTemplate(tx, ctx.actor, id, patch, ctx.now()));
      return toTemplateDto(ctx.db, row, dc(ctx), { withDetails: true });
    }),

  duplicate: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/templates/{id}/duplicate',
        tags,
        summary: 'Copy a template with its documents, fields and roles',
      },
      successStatus: 201,
      idempotent: true,
      mcp: {
        tool: 'duplicate_template',
        scope: 'write',
        description:
          'Copies a template (documents, fields, roles). Default name: the original name followed by (Clone).',
      },
    })
    .input(DuplicateTemplateInput)
    .output(TemplateOutput)
    .mutation(async ({ ctx, input }) => {
      const { id, ...rest } = input;
      const row = await ctx.db
        .transaction()
        .execute((tx) => duplicateTemplate(tx, ctx.actor, id, rest, { source: ctx.source, now: ctx.now() }));
      return toTemplateDto(ctx.db, row, dc(ctx), { withDetails: true });
    }),

  archive: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/templates/{id}/archive',
        tags,
        summary: 'Archive a template (idempotent)',
      },
      idempotent: true,
      mcp: {
        tool: 'archive_template',
        scope: 'write',
        description:
          'Archives a template: it can no longer be sent and unfinished signing links made from it stop working. No unarchive.',
      },
    })
    .input(TemplateIdInput)
    .output(TemplateOutput)
    .mutation(async ({ ctx, input }) => {
      const row = await ctx.db
        .transaction()
        .execute((tx) => archiveTemplate(tx, ctx.actor, input.id, ctx.now()));
      return toTemplateDto(ctx.db, row, dc(ctx), { withDetails: true });
    }),
});
