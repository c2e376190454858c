import { scopeOf } from '../context.ts';
import {
  CreateTemplateInput,
  DuplicateTemplateInput,
  EditorAddDocumentInput,
  EditorOutput,
  EditorSaveInput,
  EditorSaveOutput,
  ListTemplatesInput,
  TemplateIdInput,
  TemplateListOutput,
  TemplateOutput,
  TemplatePreviewInput,
  TemplatePreviewOutput,
  UpdateTemplateInput,
} from '../contracts/templates.ts';
import {
  addTemplateDocument,
  archiveTemplate,
  createTemplate,
  duplicateTemplate,
  getTemplate,
  issueTemplatePreview,
  listTemplates,
  openTemplateEditor,
  saveFromEditor,
  updateTemplate,
} from '../services/templates/index.ts';
import { actorProcedure, router, writeProcedure } from '../trpc.ts';

const tags = ['Templates'];

export const templatesRouter = router({
  list: actorProcedure
    .meta({
      openapi: { method: 'GET', path: '/templates', tags, summary: 'List templates, newest first' },
      mcp: {
        tool: 'list_templates',
        title: 'List templates',
        scope: 'read',
        description:
          'Lists templates newest first (archived excluded unless archived=true). Filters: q (name search), external_id, folder. Paginate with cursor = next_cursor while has_more.',
      },
    })
    .input(ListTemplatesInput)
    .output(TemplateListOutput)
    .query(({ ctx, input }) => listTemplates(ctx, scopeOf(ctx.actor), input)),

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
        title: 'Get template',
        scope: 'read',
        description:
          'Returns one template with its roles, fields (names are the prefill keys) and documents.',
      },
    })
    .input(TemplateIdInput)
    .output(TemplateOutput)
    .query(({ ctx, input }) => getTemplate(ctx, scopeOf(ctx.actor), input.id)),

  create: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/templates',
        tags,
        summary: 'Create a template from documents (JSON with base64 or https URLs, or multipart/form-data)',
        contentTypes: ['application/json', 'multipart/form-data'],
      },
      request: { body: 'template_upload', documents: [['documents', '*', 'file']] },
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
        title: 'Create template',
        required: ['documents'],
        hints: { openWorld: true },
        scope: 'write',
        description:
          'Creates a template from 1..10 documents (PDF or image; `file` is base64, optionally a data: URI, or an https:// URL; 25 MB each). Text tags like {{Name;role=Client;type=signature}} and fillable form fields become fields automatically; `fields` adds more (areas are fractions of the page, page is 1-based).',
      },
    })
    .input(CreateTemplateInput)
    .output(TemplateOutput)
    .mutation(({ ctx, input }) => createTemplate(ctx, ctx.actor, { ...input, source: ctx.source })),

  update: writeProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/templates/{id}',
        tags,
        summary: 'Update a template (PUT is an alias)',
      },
      // A template's fields, up to their maximum, replace the stored ones.
      request: { body: 'template_fields' },
      inputErrors: { fields: 'invalid_field' },
      mcp: {
        tool: 'update_template',
        title: 'Update template',
        hints: { destructive: true, idempotent: true },
        scope: 'write',
        description:
          'Changes only the keys sent: name, external_id (null clears), folder, roles (renamed by position; extra names add roles; never removed), fields (replaces all; [] removes all). Affects only requests sent afterwards.',
      },
    })
    .input(UpdateTemplateInput)
    .output(TemplateOutput)
    .mutation(({ ctx, input }) => updateTemplate(ctx, ctx.actor, input)),

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
        title: 'Duplicate template',
        scope: 'write',
        description:
          'Copies a template (documents, fields, roles). Default name: the original name followed by (Clone).',
      },
    })
    .input(DuplicateTemplateInput)
    .output(TemplateOutput)
    .mutation(({ ctx, input }) => duplicateTemplate(ctx, ctx.actor, { ...input, source: ctx.source })),

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
        title: 'Archive template',
        hints: { destructive: true, idempotent: true },
        scope: 'write',
        description:
          'Archives a template: it can no longer be sent and unfinished signing links made from it stop working. No unarchive.',
      },
    })
    .input(TemplateIdInput)
    .output(TemplateOutput)
    .mutation(({ ctx, input }) => archiveTemplate(ctx, ctx.actor, input.id)),

  // The editor at edit_url (dashboard only: no REST route, no MCP tool). Its save is PATCH's rules
  // with a version precondition; see services/templates/editor.ts and docs/template-editor.md.
  editor: actorProcedure
    .input(TemplateIdInput)
    .output(EditorOutput)
    .query(({ ctx, input }) => openTemplateEditor(ctx, scopeOf(ctx.actor), input.id)),

  editorSave: writeProcedure
    .meta({ inputErrors: { fields: 'invalid_field' } })
    .input(EditorSaveInput)
    .output(EditorSaveOutput)
    .mutation(({ ctx, input }) => saveFromEditor(ctx, ctx.actor, input)),

  addDocument: writeProcedure
    .input(EditorAddDocumentInput)
    .output(EditorSaveOutput)
    .mutation(({ ctx, input }) => addTemplateDocument(ctx, ctx.actor, input)),

  preview: writeProcedure
    .input(TemplatePreviewInput)
    .output(TemplatePreviewOutput)
    .mutation(({ ctx, input }) => issueTemplatePreview(ctx, scopeOf(ctx.actor), input)),
});
