import { FIELD_TYPES, type FieldType, INPUT_FIELD_TYPES, OPTION_FIELD_TYPES } from '@esign/domain';
import { z } from 'zod';
import { IdParam } from './ids.ts';

/**
 * The field types of the specification, all of them and those a client may send in a field
 * definition (`cells` only comes from forms/tags); @esign/domain owns the lists.
 */
export { FIELD_TYPES, type FieldType, INPUT_FIELD_TYPES };
export const OPTION_TYPES: readonly FieldType[] = OPTION_FIELD_TYPES;

export const FieldAreaInput = z.object({
  page: z.number().int().min(1),
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
  w: z.number().gt(0).max(1),
  h: z.number().gt(0).max(1),
  document: z.number().int().min(0).default(0),
});

export const FieldDefinition = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  type: z.enum(INPUT_FIELD_TYPES as [FieldType, ...FieldType[]]),
  role: z.string().trim().min(1).max(100).optional(),
  required: z.boolean().default(true),
  options: z.array(z.string().min(1).max(500)).min(1).max(200).optional(),
  areas: z.array(FieldAreaInput).min(1).max(100),
});
export type FieldDefinitionInput = z.infer<typeof FieldDefinition>;

const DocumentInput = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  // An empty string is left to readDocumentFile: the spec's 422 invalid_document ("document empty").
  file: z.string().describe('base64 of a PDF or image (a data: URI prefix is allowed), or an https:// URL'),
});

export const CreateTemplateInput = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  external_id: z.string().max(200).optional(),
  folder: z.string().trim().min(1).max(200).optional(),
  password: z.string().optional().describe('for encrypted PDFs'),
  documents: z.array(DocumentInput).optional().describe('1..10 documents, 25 MB each'),
  fields: z.array(FieldDefinition).optional(),
});
export type CreateTemplateInput = z.infer<typeof CreateTemplateInput>;

const limit = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+$/)
      .transform(Number),
  ])
  .optional()
  .transform((v) => (v === undefined || v < 1 ? 20 : Math.min(v, 100)))
  .describe('1..100, default 20; below 1 becomes 20, above 100 becomes 100');
const cursor = IdParam.optional();
const boolParam = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true')
  .optional();

export const ListTemplatesInput = z.object({
  limit,
  cursor,
  q: z.string().max(200).optional(),
  archived: boolParam,
  external_id: z.string().max(200).optional(),
  folder: z.string().max(200).optional(),
});

export const PaginationInput = z.object({ limit, cursor });

export const TemplateIdInput = z.object({ id: IdParam });

export const UpdateTemplateInput = z.object({
  id: IdParam,
  name: z.string().trim().min(1).max(200).optional(),
  external_id: z.string().max(200).nullable().optional(),
  folder: z.string().trim().min(1).max(200).optional(),
  roles: z.array(z.string().trim().min(1).max(100)).min(1).max(10).optional(),
  fields: z.array(FieldDefinition).optional(),
});

export const DuplicateTemplateInput = z.object({
  id: IdParam,
  name: z.string().trim().min(1).max(200).optional(),
  external_id: z.string().max(200).optional(),
  folder: z.string().trim().min(1).max(200).optional(),
});

/** Where a field stands: its page (from 1), its box as fractions of the page, its document (from 0). */
export const FieldAreaOutput = z.object({
  page: z.number(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  document: z.number(),
});

export const TemplateFieldOutput = z.object({
  id: z.string(),
  name: z.string().optional(),
  type: z.enum(FIELD_TYPES),
  role: z.string(),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
  areas: z.array(FieldAreaOutput),
});

export const TemplateDocumentOutput = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  preview_image_url: z.string().nullable(),
  page_count: z.number().int(),
});

export const UserRef = z
  .object({ id: z.number().int(), email: z.string(), name: z.string().nullable() })
  .nullable();

export const TemplateOutput = z.object({
  object: z.literal('template'),
  id: z.number().int(),
  name: z.string(),
  external_id: z.string().nullable(),
  folder: z.string().nullable(),
  roles: z.array(z.string()),
  edit_url: z.string(),
  created_by: UserRef,
  archived_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  fields: z.array(TemplateFieldOutput).optional(),
  documents: z.array(TemplateDocumentOutput).optional(),
  warnings: z.array(z.string()).optional(),
});
export type TemplateDto = z.infer<typeof TemplateOutput>;

export const TemplateListOutput = z.object({
  object: z.literal('list'),
  data: z.array(TemplateOutput),
  has_more: z.boolean(),
  next_cursor: z.number().int().nullable(),
});

/**
 * The template editor's save (no REST route; PATCH /templates/{id} stays as the spec has it):
 * PATCH's keys plus `version`, the template version the editor loaded, and `documents`, the
 * template's document ids in their new order (ids left out are removed). Its fields may also be
 * `cells` (all 14 types of the spec): a template made from text tags or form fields can have them,
 * and the editor saves every field back, so it must be able to keep them.
 */
export const EditorFieldDefinition = FieldDefinition.extend({
  type: z.enum(FIELD_TYPES),
});

export const EditorSaveInput = UpdateTemplateInput.omit({ external_id: true, folder: true }).extend({
  version: z.number().int().min(1),
  fields: z.array(EditorFieldDefinition).optional(),
  documents: z.array(IdParam).min(1).max(10).optional(),
});

export const EditorAddDocumentInput = z.object({
  id: IdParam,
  version: z.number().int().min(1),
  name: z.string().trim().min(1).max(200).optional(),
  file: z.string().describe('base64 of a PDF or image (a data: URI prefix is allowed)'),
  password: z.string().optional(),
});

export const EditorPageOutput = z.object({
  number: z.number().int(),
  width: z.number(),
  height: z.number(),
  image_url: z.string(),
});

export const EditorOutput = z.object({
  version: z.number().int(),
  template: TemplateOutput,
  documents: z.array(z.object({ id: z.number().int(), name: z.string(), pages: z.array(EditorPageOutput) })),
});

export const EditorSaveOutput = EditorOutput.extend({ status: z.enum(['saved', 'conflict']) });

export const TemplatePreviewInput = z.object({ id: IdParam, role: z.string().trim().min(1).max(100) });
export const TemplatePreviewOutput = z.object({ url: z.string(), expires_at: z.string() });
