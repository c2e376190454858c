import { json, type TemplateDocumentRow, type Tx } from '@esign/db';
import { CoreError } from '../../errors.ts';
import { loadTemplateDocuments, loadTemplateFields } from './queries.ts';

// A template's documents in the editor: reordered and removed within a save (fields' areas name
// documents by their 0-based position, so they follow), added one at a time (editor.ts).

function checkOrder(docs: TemplateDocumentRow[], order: number[], templateId: number): void {
  if (order.length === 0) throw new CoreError('missing_documents', 'A template needs at least one document');
  if (new Set(order).size !== order.length)
    throw new CoreError('invalid_parameter', 'documents: a document id is listed twice');
  const known = new Set(docs.map((d) => d.id));
  const unknown = order.find((d) => !known.has(d));
  if (unknown !== undefined)
    throw new CoreError(
      'invalid_parameter',
      `documents: ${unknown} is not a document of template ${templateId}`,
    );
}

/**
 * Puts the template's documents in `order` (their ids) and removes those left out. With
 * `remapFields` (a save that does not send `fields`) the stored fields' areas follow their
 * documents; areas on a removed document go, and so does a field left without areas.
 */
export async function reorderDocuments(
  tx: Tx,
  templateId: number,
  order: number[],
  remapFields: boolean,
): Promise<TemplateDocumentRow[]> {
  const docs = await loadTemplateDocuments(tx, templateId);
  checkOrder(docs, order, templateId);
  const removed = docs.filter((d) => !order.includes(d.id)).map((d) => d.id);
  if (removed.length) await tx.deleteFrom('template_documents').where('id', 'in', removed).execute();
  for (const [position, docId] of order.entries())
    await tx.updateTable('template_documents').set({ position }).where('id', '=', docId).execute();
  if (remapFields) await remapFieldAreas(tx, templateId, docs, order);
  const byId = new Map(docs.map((d) => [d.id, d]));
  return order.map((docId, position) => ({ ...byId.get(docId)!, position }));
}

async function remapFieldAreas(
  tx: Tx,
  templateId: number,
  before: TemplateDocumentRow[],
  order: number[],
): Promise<void> {
  const newIndex = new Map(before.map((d, i) => [i, order.indexOf(d.id)]));
  for (const f of await loadTemplateFields(tx, templateId)) {
    const areas = f.areas
      .map((a) => ({ ...a, document: newIndex.get(a.document) ?? -1 }))
      .filter((a) => a.document >= 0);
    if (areas.length === 0) await tx.deleteFrom('template_fields').where('id', '=', f.id).execute();
    else
      await tx
        .updateTable('template_fields')
        .set({ areas: json(areas) })
        .where('id', '=', f.id)
        .execute();
  }
}
