import type { Executor, TemplateRow, Tx } from '@esign/db';
import { templateViewOf, updateTemplateRow } from '@esign/db/queries/templates';
import type { z } from 'zod';
import type { Actor, Scope } from '../../context.ts';
import { scopeOf } from '../../context.ts';
import type { EditorOutput, FieldType } from '../../contracts/templates.ts';
import { CoreError } from '../../errors.ts';
import { MAX_DOCUMENTS } from '../documents-input.ts';
import { recordEvent } from '../events.ts';
import { pageImageLinks } from '../file-links.ts';
import type { ServiceContext } from '../service-context.ts';
import { removeFiles } from '../storage.ts';
import { insertDocuments, type StoredDocument, storeDocuments } from './create.ts';
import { toTemplateDto } from './dto.ts';
import { applyUpdate, type UpdateTemplateArgs } from './edit.ts';
import { type FieldSpec, insertFields, nameFields } from './fields.ts';
import { loadTemplateDocuments, loadTemplateFields, lockTemplate, requireTemplate } from './queries.ts';
import { type DeclaredRole, rolesFromTags } from './role-kinds.ts';

// The template editor at edit_url (issue 12). It reads the template with every page image and the
// template's `version`, and saves through the same applyUpdate as PATCH /templates/{id} (same
// invalid_field rules, roles renamed by position, one template.updated per save) with one addition:
// the version it edited. A save over someone else's newer save changes nothing and answers
// `conflict` with the current template, so two editors never silently overwrite each other.

/** Page image links live as long as an editing session may reasonably stay open. */
const EDITOR_LINK_TTL_SECONDS = 12 * 3600;

export type EditorState = z.infer<typeof EditorOutput>;

async function editorState(sc: ServiceContext, row: TemplateRow): Promise<EditorState> {
  const now = sc.now();
  const docs = await loadTemplateDocuments(sc.db, row.id);
  return {
    version: row.version,
    template: await toTemplateDto(sc.db, await templateViewOf(sc.db, row), {
      config: sc.config,
      now,
      withDetails: true,
    }),
    documents: docs.map((d) => ({
      id: d.id,
      name: d.name,
      pages: pageImageLinks(sc.config, d, { now, ttlSeconds: EDITOR_LINK_TTL_SECONDS }),
    })),
  };
}

/** templates.editor: the template as the editor starts from it. */
export async function openTemplateEditor(sc: ServiceContext, scope: Scope, id: number): Promise<EditorState> {
  return editorState(sc, await requireTemplate(sc.db, scope, id));
}

export interface EditorSaveResult extends EditorState {
  status: 'saved' | 'conflict';
}

/** templates.editorSave: PATCH's change, made only if the template is still at `version`. */
export async function saveFromEditor(
  sc: ServiceContext,
  actor: Actor,
  input: UpdateTemplateArgs & { id: number; version: number },
): Promise<EditorSaveResult> {
  const { id, version, ...patch } = input;
  const now = sc.now();
  const { row, conflict } = await sc.db
    .transaction()
    .execute((tx) => applyUpdate(tx, actor, { id, input: patch, now, expectedVersion: version }));
  return { status: conflict ? 'conflict' : 'saved', ...(await editorState(sc, row)) };
}

/**
 * templates.addDocument: one more document at the end (text tags and form fields in it become
 * fields, like POST /templates), if the template is still at `version` and has fewer than 10.
 */
export async function addTemplateDocument(
  sc: ServiceContext,
  actor: Actor,
  input: { id: number; version: number; name?: string; file: string; password?: string },
): Promise<EditorSaveResult> {
  const { id, version } = input;
  const scope = scopeOf(actor);
  // Cheap checks first, so a full template or a stale editor does not download and parse for nothing.
  const current = await requireTemplate(sc.db, scope, id);
  if (current.version !== version) return { status: 'conflict', ...(await editorState(sc, current)) };
  await checkRoom(sc.db, id);
  const keys: string[] = [];
  try {
    const stored = await storeDocuments(sc.deps, {
      accountId: actor.accountId,
      input: { documents: [{ name: input.name, file: input.file }], password: input.password },
      keys,
    });
    const now = sc.now();
    const result = await sc.db
      .transaction()
      .execute((tx) => appendDocument(tx, actor, { id, version, stored, now }));
    if (result.conflict) await removeFiles(sc.deps.storage, keys);
    return { status: result.conflict ? 'conflict' : 'saved', ...(await editorState(sc, result.row)) };
  } catch (err) {
    await removeFiles(sc.deps.storage, keys);
    throw err;
  }
}

async function checkRoom(db: Executor, id: number): Promise<number> {
  const count = (await loadTemplateDocuments(db, id)).length;
  if (count >= MAX_DOCUMENTS)
    throw new CoreError(
      'too_many_documents',
      `A template has at most ${MAX_DOCUMENTS} documents; it has ${count}`,
    );
  return count;
}

async function appendDocument(
  tx: Tx,
  actor: Actor,
  add: {
    id: number;
    version: number;
    stored: { stored: StoredDocument[]; detected: FieldSpec[]; declared: DeclaredRole[] };
    now: Date;
  },
): Promise<{ row: TemplateRow; conflict: boolean }> {
  const { id, now } = add;
  const scope = scopeOf(actor);
  const row = await lockTemplate(tx, scope, id);
  if (row.version !== add.version) return { row, conflict: true };
  const position = await checkRoom(tx, id);
  await insertDocuments(tx, id, { stored: add.stored.stored, firstPosition: position });
  const existing: FieldSpec[] = (await loadTemplateFields(tx, id)).map((f) => ({
    ...f,
    name: f.name ?? '',
    type: f.type as FieldType,
  }));
  const detected = add.stored.detected.map((f) => ({
    ...f,
    areas: f.areas.map((a) => ({ ...a, document: position })),
  }));
  // The new document's tags and form fields get names not yet taken and go after the fields there.
  const added = nameFields([...existing, ...detected]).slice(existing.length);
  // Its role tags (issue 47) add roles or set a role's kind, as a PATCH role_kinds would.
  const { roles, fields, role_kinds } = rolesFromTags(
    { roles: row.roles, role_kinds: row.role_kinds, fields: existing },
    added,
    add.stored.declared,
  );
  await insertFields(tx, id, { fields, firstPosition: existing.length });
  const updated = await updateTemplateRow(tx, id, {
    updated_at: now,
    version: row.version + 1,
    roles,
    role_kinds,
  });
  await recordEvent(tx, scope, { type: 'template.updated', objectType: 'template', objectId: id, now });
  return { row: updated, conflict: false };
}
