import type { ParticipantKind, TemplateRow, Tx } from '@esign/db';
import { insertTemplateDocuments } from '@esign/db/queries/template-documents';
import { deleteTemplateFields } from '@esign/db/queries/template-fields';
import { insertTemplate, templateViewOf, updateTemplateRow } from '@esign/db/queries/templates';
import type { Actor, Source } from '../../context.ts';
import { scopeOf } from '../../context.ts';
import type { FieldDefinitionInput, FieldType, TemplateDto } from '../../contracts/templates.ts';
import { requireBrandChoice } from '../brands/brands.ts';
import { recordEvent } from '../events.ts';
import { commitIdempotentOutcome } from '../idempotency.ts';
import type { ServiceContext } from '../service-context.ts';
import { reorderDocuments } from './documents.ts';
import { toTemplateDto } from './dto.ts';
import {
  assignRoles,
  fieldSpecsFromDefinitions,
  insertFields,
  keepFontSizes,
  nameFields,
  renameRoles,
} from './fields.ts';
import { folderId, loadTemplateDocuments, loadTemplateFields, lockTemplate } from './queries.ts';
import { nextRoleKinds } from './role-kinds.ts';

// Changes to a template: each runs in one transaction that locks the template (scoped to the
// actor's account side) and records its event, then returns the Template object.

export interface UpdateTemplateArgs {
  name?: string;
  external_id?: string | null;
  /** null: out of its folder. */
  folder?: string | null;
  roles?: string[];
  fields?: (Omit<FieldDefinitionInput, 'type'> & { type: FieldType })[];
  /** The editor only: the template's document ids in their new order; ids left out are removed. */
  documents?: number[];
  /** Issue 44: the brand its requests show; null: the account's default. */
  brand_id?: number | null;
  /** Issue 47: role name → its part (signer, approver, viewer); approver and viewer roles take no fields. */
  role_kinds?: Record<string, ParticipantKind>;
}

/** The editor's precondition: the `version` it loaded; another save in between is a conflict. */
export interface UpdatePrecondition {
  expectedVersion?: number;
}

async function templateResult(sc: ServiceContext, row: TemplateRow): Promise<TemplateDto> {
  return toTemplateDto(sc.db, await templateViewOf(sc.db, row), {
    config: sc.config,
    now: sc.now(),
    withDetails: true,
  });
}

/**
 * One change of a template, in the caller's transaction: the row is locked (scoped to the actor's
 * account side); with a precondition whose version is not the current one nothing changes and the
 * current row comes back as `conflict`. Otherwise `version` counts up and template.updated is
 * recorded once.
 */
export async function applyUpdate(
  tx: Tx,
  actor: Actor,
  change: { id: number; input: UpdateTemplateArgs; now: Date } & UpdatePrecondition,
): Promise<{ row: TemplateRow; conflict: boolean }> {
  const { id, input, now } = change;
  const scope = scopeOf(actor);
  const row = await lockTemplate(tx, scope, id);
  if (change.expectedVersion !== undefined && change.expectedVersion !== row.version)
    return { row, conflict: true };
  let roles = input.roles
    ? await renameRoles(tx, id, { current: row.roles, input: input.roles })
    : [...row.roles];
  const docs = input.documents
    ? await reorderDocuments(tx, id, { order: input.documents, remapFields: input.fields === undefined })
    : await loadTemplateDocuments(tx, id);
  let placed: { name?: string | null; role?: string | undefined }[] | null = null;
  if (input.fields) {
    const given = fieldSpecsFromDefinitions(input.fields, docs, 'api');
    const specs = nameFields(keepFontSizes(await loadTemplateFields(tx, id), given));
    const assigned = assignRoles(roles, specs);
    roles = assigned.roles;
    placed = assigned.fields;
    await deleteTemplateFields(tx, id);
    await insertFields(tx, id, { fields: assigned.fields });
  }
  // Issue 47: approver and viewer roles take no fields (422 invalid_field), whichever changed.
  const role_kinds = nextRoleKinds(roles, {
    stored: row.role_kinds,
    input: input.role_kinds,
    fields: placed ?? (await loadTemplateFields(tx, id)),
  });
  const updated = await updateTemplateRow(tx, id, {
    updated_at: now,
    version: row.version + 1,
    roles,
    role_kinds,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.external_id !== undefined ? { external_id: input.external_id } : {}),
    ...(input.brand_id !== undefined
      ? { brand_id: await requireBrandChoice(tx, scope, input.brand_id) }
      : {}),
    ...(input.folder !== undefined ? { folder_id: (await folderId(tx, scope, input.folder)) ?? null } : {}),
  });
  await recordEvent(tx, scope, { type: 'template.updated', objectType: 'template', objectId: id, now });
  return { row: updated, conflict: false };
}

/** PATCH /templates/{id}: only sent keys change; roles renamed by position, never removed. */
export async function updateTemplate(
  sc: ServiceContext,
  actor: Actor,
  input: UpdateTemplateArgs & { id: number },
): Promise<TemplateDto> {
  const { id, ...patch } = input;
  const now = sc.now();
  const { row } = await sc.db
    .transaction()
    .execute((tx) => applyUpdate(tx, actor, { id, input: patch, now }));
  return templateResult(sc, row);
}

export interface DuplicateTemplateArgs {
  id: number;
  name?: string;
  external_id?: string;
  folder?: string;
}

async function copyTemplate(
  tx: Tx,
  actor: Actor,
  input: DuplicateTemplateArgs,
  opts: { source: Source; now: Date },
) {
  const scope = scopeOf(actor);
  // Locked so the copy is of one version of the template, never half of a concurrent update.
  const original = await lockTemplate(tx, scope, input.id);
  const copy = await insertTemplate(tx, scope, {
    name: input.name ?? `${original.name} (Clone)`,
    external_id: input.external_id ?? null,
    folder_id:
      input.folder !== undefined ? ((await folderId(tx, scope, input.folder)) ?? null) : original.folder_id,
    roles: original.roles,
    role_kinds: original.role_kinds,
    brand_id: original.brand_id,
    source: opts.source,
    created_by_user_id: actor.userId,
    api_key_id: actor.apiKeyId,
    created_at: opts.now,
    updated_at: opts.now,
  });
  // The documents' files are immutable: the copy shares them.
  await insertTemplateDocuments(tx, copy.id, await loadTemplateDocuments(tx, input.id));
  const fields = await loadTemplateFields(tx, input.id);
  await insertFields(tx, copy.id, {
    fields: fields.map((f) => ({
      name: f.name ?? '',
      type: f.type as FieldType,
      role: f.role,
      required: f.required,
      options: f.options,
      areas: f.areas,
      source: f.source,
      logic: f.logic,
    })),
  });
  await recordEvent(tx, scope, {
    type: 'template.created',
    objectType: 'template',
    objectId: copy.id,
    now: opts.now,
  });
  return copy;
}

/** POST /templates/{id}/duplicate: documents (shared immutable files), fields (new ids) and roles. */
export async function duplicateTemplate(
  sc: ServiceContext,
  actor: Actor,
  { source, ...input }: DuplicateTemplateArgs & { source: Source },
): Promise<TemplateDto> {
  const now = sc.now();
  const row = await sc.db.transaction().execute(async (tx) => {
    const copy = await copyTemplate(tx, actor, input, { source, now });
    // The Idempotency-Key's outcome commits with the copy (issue 41): a retry reads it, never copies again.
    await commitIdempotentOutcome(tx, sc.idempotency, { resource: { type: 'template', id: copy.id } });
    return copy;
  });
  return templateResult(sc, row);
}

/** POST /templates/{id}/archive: idempotent; template.archived only the first time. */
export async function archiveTemplate(sc: ServiceContext, actor: Actor, id: number): Promise<TemplateDto> {
  const now = sc.now();
  const row = await sc.db.transaction().execute(async (tx) => {
    const scope = scopeOf(actor);
    const current = await lockTemplate(tx, scope, id);
    let archived = current;
    if (!current.archived_at) {
      archived = await updateTemplateRow(tx, id, { archived_at: now, updated_at: now });
      await recordEvent(tx, scope, { type: 'template.archived', objectType: 'template', objectId: id, now });
    }
    // The Idempotency-Key's outcome commits with the archive (issue 41).
    await commitIdempotentOutcome(tx, sc.idempotency, { resource: { type: 'template', id } });
    return archived;
  });
  return templateResult(sc, row);
}
