import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type Executor, json, type Tx } from '../connection.ts';
import type { FieldAreaRow, TemplateFieldRow } from '../schema.ts';
import { insertInChunks } from './chunks.ts';

// A template's fields (template_fields), read and written by the template's id once the template
// was found within its account side (templates.ts, scoped.ts).

/** The fields of the template in their order. */
export function listTemplateFields(db: Executor, templateId: number): Promise<TemplateFieldRow[]> {
  return db
    .selectFrom('template_fields')
    .selectAll()
    .where('template_id', '=', templateId)
    .orderBy('position')
    .execute();
}

/** A field to store: each gets a new id. */
export interface NewTemplateField {
  position: number;
  name: string | null;
  type: string;
  role: string;
  required: boolean;
  options: string[] | null;
  areas: FieldAreaRow[];
  source: string;
  /** form logic (issue 46); null when none */
  logic?: Record<string, unknown> | null;
}

/** The bind parameters one field row takes in the insert below. */
const FIELD_PARAMETERS = 11;

/** Stores the fields, in as many statements as the parameter limit needs (a template may have thousands). */
export async function insertTemplateFields(
  tx: Tx,
  templateId: number,
  fields: readonly NewTemplateField[],
): Promise<void> {
  await insertInChunks(fields, FIELD_PARAMETERS, async (chunk) => {
    await tx
      .insertInto('template_fields')
      .values(
        chunk.map((f) => ({
          id: randomUUID(),
          template_id: templateId,
          position: f.position,
          name: f.name,
          type: f.type,
          role: f.role,
          required: f.required,
          options: f.options ? json(f.options) : null,
          areas: json(f.areas),
          source: f.source,
          logic: f.logic ? json(f.logic) : null,
        })),
      )
      .execute();
    return [];
  });
}

/** Removes every field of the template. */
export async function deleteTemplateFields(tx: Tx, templateId: number): Promise<void> {
  await tx.deleteFrom('template_fields').where('template_id', '=', templateId).execute();
}

/** Removes the fields `ids` of the template (one statement: the ids travel as one array parameter). */
export async function deleteTemplateFieldsById(
  tx: Tx,
  templateId: number,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .deleteFrom('template_fields')
    .where('template_id', '=', templateId)
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .execute();
}

/**
 * Replaces the areas of the template's fields named by id, in one statement whatever their number
 * (ids and areas travel as two array parameters).
 */
export async function setTemplateFieldAreas(
  tx: Tx,
  templateId: number,
  updates: readonly { id: string; areas: FieldAreaRow[] }[],
): Promise<void> {
  if (updates.length === 0) return;
  const ids = updates.map((u) => u.id);
  const areas = updates.map((u) => json(u.areas));
  await sql`update template_fields f set areas = v.areas
    from unnest(${ids}::uuid[], ${areas}::jsonb[]) as v(id, areas)
    where f.id = v.id and f.template_id = ${templateId}`.execute(tx);
}

/**
 * Renames roles on the template's fields (`from` → `to`) in one statement, so swapping two names
 * cannot collide.
 */
export async function renameTemplateFieldRoles(
  tx: Tx,
  templateId: number,
  renames: ReadonlyMap<string, string>,
): Promise<void> {
  if (renames.size === 0) return;
  const cases = [...renames].map(([from, to]) => sql`when ${from} then ${to}`);
  await tx
    .updateTable('template_fields')
    .set({ role: sql<string>`case role ${sql.join(cases, sql` `)} else role end` })
    .where('template_id', '=', templateId)
    .where('role', 'in', [...renames.keys()])
    .execute();
}
