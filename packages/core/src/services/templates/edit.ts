import { json, type TemplateRow, type Tx } from '@esign/db';
import type { Actor, Source } from '../../context.ts';
import { scopeOf } from '../../context.ts';
import type { FieldDefinitionInput, FieldType, TemplateDto } from '../../contracts/templates.ts';
import { recordEvent } from '../events.ts';
import type { ServiceContext } from '../service-context.ts';
import { reorderDocuments } from './documents.ts';
import { toTemplateDto } from './dto.ts';
import { assignRoles, fieldSpecsFromDefinitions, insertFields, nameFields, renameRoles } from './fields.ts';
import {
  folderId,
  loadTemplateDocuments,
  loadTemplateFields,
  lockTemplate,
  templateViewOf,
} from './queries.ts';

// Changes to a template: each runs in one transaction that locks the template (scoped to the
// actor's account side) and records its event, then returns the Template object.

export interface UpdateTemplateArgs {
  name?: string;
  external_id?: string | null;
  folder?: string;
  roles?: string[];
  fields?: (Omit<FieldDefinitionInput, 'type'> & { type: FieldType })[];
  /** The editor only: the template's document ids in their new order; ids left out are removed. */
  documents?: number[];
}

/** The editor's precondition: the `version` it loaded; another save in between is a conflict. */
export interface UpdatePrecondition {
  expectedVersion?: number;
}

async function templateResult(sc: ServiceContext, row: TemplateRow): Promise<TemplateDto> {
  return toTemplateDto(
    sc.db,
    await templateViewOf(sc.db, row),
    { config: sc.config, now: sc.now() },
    { withDetails: true },
  );
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
  id: number,
  input: UpdateTemplateArgs,
  opts: { now: Date } & UpdatePrecondition,
): Promise<{ row: TemplateRow; conflict: boolean }> {
  const scope = scopeOf(actor);
  const row = await lockTemplate(tx, scope, id);
  if (opts.expectedVersion !== undefined && opts.expectedVersion !== row.version)
    return { row, conflict: true };
  let roles = input.roles ? await renameRoles(tx, id, row.roles, input.roles) : [...row.roles];
  const docs = input.documents
    ? await reorderDocuments(tx, id, input.documents, input.fields === undefined)
    : await loadTemplateDocuments(tx, id);
  if (input.fields) {
    const specs = nameFields(fieldSpecsFromDefinitions(input.fields, docs, 'api'));
    const assigned = assignRoles(roles, specs);
    roles = assigned.roles;
    await tx.deleteFrom('template_fields').where('template_id', '=', id).execute();
    await insertFields(tx, id, assigned.fields);
  }
  const updated = await tx
    .updateTable('templates')
    .set({
      updated_at: opts.now,
      version: row.version + 1,
      roles: json(roles),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.external_id !== undefined ? { external_id: input.external_id } : {}),
      ...(input.folder !== undefined ? { folder_id: (await folderId(tx, scope, input.folder)) ?? null } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordEvent(tx, scope, {
    type: 'template.updated',
    objectType: 'template',
    objectId: id,
    now: opts.now,
  });
  return { row: updated, conflict: false };
}

/** PATCH /templates/{id}: only sent keys change; roles renamed by position, never removed. */
export async function updateTemplate(
  sc: ServiceContext,
  actor: Actor,
  id: number,
  input: UpdateTemplateArgs,
): Promise<TemplateDto> {
  const now = sc.now();
  const { row } = await sc.db.transaction().execute((tx) => applyUpdate(tx, actor, id, input, { now }));
  return templateResult(sc, row);
}

async function copyTemplate(
  tx: Tx,
  actor: Actor,
  id: number,
  input: { name?: string; external_id?: string; folder?: string },
  opts: { source: Source; now: Date },
) {
  const scope = scopeOf(actor);
  // Locked so the copy is of one version of the template, never half of a concurrent update.
  const original = await lockTemplate(tx, scope, id);
  const copy = await tx
    .insertInto('templates')
    .values({
      account_id: actor.accountId,
      environment: actor.environment,
      name: input.name ?? `${original.name} (Clone)`,
      external_id: input.external_id ?? null,
      folder_id:
        input.folder !== undefined ? ((await folderId(tx, scope, input.folder)) ?? null) : original.folder_id,
      roles: json(original.roles),
      source: opts.source,
      created_by_user_id: actor.userId,
      api_key_id: actor.apiKeyId,
      created_at: opts.now,
      updated_at: opts.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const docs = await loadTemplateDocuments(tx, id);
  if (docs.length) {
    await tx
      .insertInto('template_documents')
      .values(
        docs.map((d) => ({
          template_id: copy.id,
          position: d.position,
          name: d.name,
          storage_key: d.storage_key,
          original_storage_key: d.original_storage_key,
          mime_type: d.mime_type,
          byte_size: d.byte_size,
          sha256: d.sha256,
          uploaded_sha256: d.uploaded_sha256,
          pages: json(d.pages),
          preview_storage_key: d.preview_storage_key,
        })),
      )
      .execute();
  }
  const fields = await loadTemplateFields(tx, id);
  await insertFields(
    tx,
    copy.id,
    fields.map((f) => ({
      name: f.name ?? '',
      type: f.type as FieldType,
      role: f.role,
      required: f.required,
      options: f.options,
      areas: f.areas,
      source: f.source,
    })),
  );
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
  id: number,
  input: { name?: string; external_id?: string; folder?: string },
  opts: { source: Source },
): Promise<TemplateDto> {
  const now = sc.now();
  const row = await sc.db
    .transaction()
    .execute((tx) => copyTemplate(tx, actor, id, input, { source: opts.source, now }));
  return templateResult(sc, row);
}

/** POST /templates/{id}/archive: idempotent; template.archived only the first time. */
export async function archiveTemplate(sc: ServiceContext, actor: Actor, id: number): Promise<TemplateDto> {
  const now = sc.now();
  const row = await sc.db.transaction().execute(async (tx) => {
    const scope = scopeOf(actor);
    const current = await lockTemplate(tx, scope, id);
    if (current.archived_at) return current;
    const archived = await tx
      .updateTable('templates')
      .set({ archived_at: now, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvent(tx, scope, { type: 'template.archived', objectType: 'template', objectId: id, now });
    return archived;
  });
  return templateResult(sc, row);
}
