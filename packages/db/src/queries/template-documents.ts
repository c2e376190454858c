import { type Executor, json, type Tx } from '../connection.ts';
import type { PageSize, TemplateDocumentRow } from '../schema.ts';
import { insertInChunks } from './chunks.ts';

// A template's documents (template_documents), read and written by the template's id once the
// template was found within its account side (templates.ts, scoped.ts).

/** The documents of the template in their order. */
export function listTemplateDocuments(db: Executor, templateId: number): Promise<TemplateDocumentRow[]> {
  return db
    .selectFrom('template_documents')
    .selectAll()
    .where('template_id', '=', templateId)
    .orderBy('position')
    .execute();
}

/** A document to store (its file already is). */
export interface NewTemplateDocument {
  position: number;
  name: string;
  storage_key: string;
  original_storage_key?: string | null;
  mime_type: string;
  byte_size: number;
  sha256: string;
  uploaded_sha256: string | null;
  pages: PageSize[];
  preview_storage_key?: string | null;
}

/** The bind parameters one document row takes in the insert below. */
const DOCUMENT_PARAMETERS = 12;

export async function insertTemplateDocuments(
  tx: Tx,
  templateId: number,
  docs: readonly NewTemplateDocument[],
): Promise<void> {
  await insertInChunks(docs, DOCUMENT_PARAMETERS, async (chunk) => {
    await tx
      .insertInto('template_documents')
      .values(
        chunk.map((d) => ({
          template_id: templateId,
          position: d.position,
          name: d.name,
          storage_key: d.storage_key,
          original_storage_key: d.original_storage_key ?? null,
          mime_type: d.mime_type,
          byte_size: d.byte_size,
          sha256: d.sha256,
          uploaded_sha256: d.uploaded_sha256,
          pages: json(d.pages),
          preview_storage_key: d.preview_storage_key ?? null,
        })),
      )
      .execute();
    return [];
  });
}

/** Removes the documents `ids` of the template. */
export async function deleteTemplateDocuments(
  tx: Tx,
  templateId: number,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .deleteFrom('template_documents')
    .where('template_id', '=', templateId)
    .where('id', 'in', ids)
    .execute();
}

/** Gives the template's documents `order` (their ids) their positions 0, 1, … in that order. */
export async function setTemplateDocumentPositions(
  tx: Tx,
  templateId: number,
  order: readonly number[],
): Promise<void> {
  // At most 10 documents: one small statement each.
  for (const [position, id] of order.entries())
    await tx
      .updateTable('template_documents')
      .set({ position })
      .where('template_id', '=', templateId)
      .where('id', '=', id)
      .execute();
}
