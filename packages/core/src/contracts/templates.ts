import {
  FIELD_TYPES,
  type FieldType,
  INPUT_FIELD_TYPES,
  OPTION_FIELD_TYPES,
  PARTICIPANT_KINDS,
} from '@esign/domain';
import { z } from 'zod';
import { fieldLogicShape } from './field-logic.ts';
import { BrandIdField, DateTime, IdOutput, IdParam } from './ids.ts';

/**
 * The field types of the specification, all of them and those a client may send in a field
 * definition (`cells` only comes from forms/tags); @esign/domain owns the lists.
 */
export type { FieldType };

/** A template's or document's name: 1..200 characters after trimming, optional, with what it means here. */
const nameOf = (description: string) => z.string().trim().min(1).max(200).optional().describe(description);
const folderName = z.string().trim().min(1).max(200).optional().describe('folder name; created if missing');

export const OPTION_TYPES: readonly FieldType[] = OPTION_FIELD_TYPES;

/**
 * The most fields one template may have, whatever brings them (`fields`, text tags, form fields, a
 * document added in the editor). Generous: the largest real forms have a few thousand.
 */
export const MAX_TEMPLATE_FIELDS = 10_000;

const FieldAreaInput = z.object({
  page: z.number().int().min(1).describe('1-based page number; the page must exist in the document'),
  x: z.number().min(0).max(1).describe("left edge, as a fraction of the page's width (0..1)"),
  y: z.number().min(0).max(1).describe("top edge, as a fraction of the page's height (0..1, from the top)"),
  w: z.number().gt(0).max(1).describe("width, as a fraction of the page's width (>0..1)"),
  h: z.number().gt(0).max(1).describe("height, as a fraction of the page's height (>0..1)"),
  document: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('0-based index of the document in the template; default 0'),
});

const FieldDefinition = z.object({
  name: nameOf('field name, the key of `prefill` values; default such as `Signature 2`'),
  type: z.enum(INPUT_FIELD_TYPES as [FieldType, ...FieldType[]]).describe('what the signer fills in'),
  role: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("the role that fills it; created if new; default the template's first role"),
  required: z.boolean().default(true).describe('whether the signer must fill it; default true'),
  options: z
    .array(z.string().min(1).max(500))
    .min(1)
    .max(200)
    .optional()
    .describe('the choices; required for select, radio and multiple'),
  areas: z
    .array(FieldAreaInput)
    .min(1)
    .max(100)
    .describe('where the field sits: at least one area (the same field on several pages has several)'),
  ...fieldLogicShape,
});
export type FieldDefinitionInput = z.infer<typeof FieldDefinition>;

/**
 * A field definition as PATCH (and the editor's save) takes it: any type a template field can have,
 * `cells` too (which only text tags and PDF form fields make), so that a template read over REST or
 * MCP can be written back as it was read.
 */
const StoredFieldDefinition = FieldDefinition.extend({
  type: z
    .enum(FIELD_TYPES)
    .describe('what the signer fills in; `cells` (from text tags and form fields) is kept as read'),
});

const MAX_FIELDS_TEXT = MAX_TEMPLATE_FIELDS.toLocaleString('en');

/** A list of field definitions, at most MAX_TEMPLATE_FIELDS (insertFields bounds the template's total). */
function fieldList<T extends z.ZodType>(definition: T) {
  return z
    .array(definition)
    .max(MAX_TEMPLATE_FIELDS, { message: `a template has at most ${MAX_FIELDS_TEXT} fields` });
}

/** A `fields` description with the maximum (issue 29 item 3) stated. */
const withFieldMaximum = (description: string) =>
  `${description}. A template has at most ${MAX_FIELDS_TEXT} fields in all, those from text tags and form fields included (more: 422 invalid_field)`;

const DocumentInput = z.object({
  name: nameOf('file name without extension; default `Document <n>`'),
  // An empty string is left to readDocumentFile: the spec's 422 invalid_document ("document empty").
  file: z.string().describe('base64 of a PDF or image (a data: URI prefix is allowed), or an https:// URL'),
});

export const CreateTemplateInput = z.object({
  name: nameOf("template name; default the first document's name"),
  external_id: z.string().max(200).optional().describe('your own id for the template'),
  folder: folderName,
  password: z.string().optional().describe('for encrypted PDFs'),
  documents: z.array(DocumentInput).optional().describe('1..10 documents, 25 MB each'),
  fields: fieldList(FieldDefinition)
    .optional()
    .describe(
      withFieldMaximum(
        'fields to place, added to any fillable PDF form fields and text tags; at most 10 roles in total',
      ),
    ),
  brand_id: BrandIdField.optional(),
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
const cursor = IdParam.optional().describe("the previous page's `next_cursor`");
const boolParam = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true')
  .optional();

export const ListTemplatesInput = z.object({
  limit,
  cursor,
  q: z.string().max(200).optional().describe('case-insensitive search on the template name'),
  archived: boolParam.describe('default false; true lists only archived templates'),
  external_id: z.string().max(200).optional().describe('exact match on your own id'),
  folder: z.string().max(200).optional().describe('exact folder name'),
});

export const PaginationInput = z.object({ limit, cursor });

export const TemplateIdInput = z.object({ id: IdParam.describe('the template id') });

export const UpdateTemplateInput = z.object({
  id: IdParam.describe('the template id'),
  name: nameOf('new template name'),
  external_id: z.string().max(200).nullable().optional().describe('your own id; null clears it'),
  folder: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .nullable()
    .optional()
    .describe('folder name; created if missing; null takes the template out of its folder'),
  roles: z
    .array(z.string().trim().min(1).max(100))
    .min(1)
    .max(10)
    .optional()
    .describe(
      'role names matched by position (the first renames the first role); extra names add roles; roles cannot be removed',
    ),
  fields: fieldList(StoredFieldDefinition)
    .optional()
    .describe(
      withFieldMaximum(
        "replaces all fields; [] removes all; roles named here that do not exist are added; a template's `fields` as read are accepted as they are",
      ),
    ),
  brand_id: BrandIdField.nullable()
    .optional()
    .describe("extension: the brand its requests show; null: the account's default"),
  role_kinds: z
    .record(z.string().trim().min(1).max(100), z.enum(PARTICIPANT_KINDS))
    .optional()
    .describe(
      "extension (issue 47): role name → signer, approver or viewer; a request's signer of that role gets its kind unless the send names one. Approver and viewer roles take no fields (422 invalid_field); roles left out keep their kind",
    ),
});

export const DuplicateTemplateInput = z.object({
  id: IdParam.describe('the template to copy'),
  name: nameOf('default the original name followed by `(Clone)`'),
  external_id: z.string().max(200).optional().describe('your own id for the copy'),
  folder: folderName,
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

const TemplateFieldOutput = z.object({
  id: z.string(),
  name: z.string().optional(),
  type: z.enum(FIELD_TYPES),
  role: z.string(),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
  areas: z.array(FieldAreaOutput),
  ...fieldLogicShape,
});

const TemplateDocumentOutput = z.object({
  id: IdOutput,
  name: z.string(),
  url: z.string(),
  preview_image_url: z.string().nullable(),
  page_count: z.number().int(),
});

const UserRef = z.object({ id: IdOutput, email: z.string(), name: z.string().nullable() }).nullable();

export const TemplateOutput = z.object({
  object: z.literal('template'),
  id: IdOutput,
  name: z.string(),
  external_id: z.string().nullable(),
  folder: z.string().nullable(),
  roles: z.array(z.string()),
  edit_url: z.string(),
  created_by: UserRef,
  archived_at: DateTime.nullable(),
  created_at: DateTime,
  updated_at: DateTime,
  fields: z.array(TemplateFieldOutput).optional(),
  documents: z.array(TemplateDocumentOutput).optional(),
  warnings: z.array(z.string()).optional(),
  brand_id: IdOutput.optional().describe(
    'extension: the brand requests sent from it show, when one is chosen',
  ),
  role_kinds: z
    .record(z.string(), z.enum(['approver', 'viewer']))
    .optional()
    .describe(
      "extension (issue 47): the roles that are an approver's or a viewer's; absent when every role signs",
    ),
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
 * template's document ids in their new order (ids left out are removed). Its fields, like PATCH's,
 * may be `cells` (all 14 types of the spec): the editor saves every field back.
 */
export const EditorSaveInput = UpdateTemplateInput.omit({ external_id: true, folder: true }).extend({
  version: z.number().int().min(1),
  fields: fieldList(StoredFieldDefinition).optional(),
  documents: z.array(IdParam).min(1).max(10).optional(),
});

export const EditorAddDocumentInput = z.object({
  id: IdParam,
  version: z.number().int().min(1),
  name: z.string().trim().min(1).max(200).optional(),
  file: z.string().describe('base64 of a PDF or image (a data: URI prefix is allowed)'),
  password: z.string().optional(),
});

const EditorPageOutput = z.object({
  number: z.number().int(),
  width: z.number(),
  height: z.number(),
  image_url: z.string(),
});

export const EditorOutput = z.object({
  version: z.number().int(),
  template: TemplateOutput,
  documents: z.array(z.object({ id: IdOutput, name: z.string(), pages: z.array(EditorPageOutput) })),
});

export const EditorSaveOutput = EditorOutput.extend({ status: z.enum(['saved', 'conflict']) });

export const TemplatePreviewInput = z.object({ id: IdParam, role: z.string().trim().min(1).max(100) });
export const TemplatePreviewOutput = z.object({ url: z.string(), expires_at: DateTime });
