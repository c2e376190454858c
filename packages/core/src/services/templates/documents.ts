import type { TemplateDocumentRow, TemplateFieldRow, Tx } from '@esign/db';
import { deleteTemplateDocuments, setTemplateDocumentPositions } from '@esign/db/queries/template-documents';
import { deleteTemplateFieldsById, setTemplateFieldAreas } from '@esign/db/queries/template-fields';
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
  opts: { order: number[]; remapFields: boolean },
): Promise<TemplateDocumentRow[]> {
  const { order } = opts;
  const docs = await loadTemplateDocuments(tx, templateId);
  checkOrder(docs, order, templateId);
  const removed = docs.filter((d) => !order.includes(d.id)).map((d) => d.id);
  await deleteTemplateDocuments(tx, templateId, removed);
  await setTemplateDocumentPositions(tx, templateId, order);
  if (opts.remapFields) await remapFieldAreas(tx, templateId, { before: docs, order });
  const byId = new Map(docs.map((d) => [d.id, d]));
  return order.map((docId, position) => ({ ...byId.get(docId)!, position }));
}

/** The fields' areas follow their documents' new positions: two statements, whatever the fields' number. */
async function remapFieldAreas(
  tx: Tx,
  templateId: number,
  docs: { before: TemplateDocumentRow[]; order: number[] },
): Promise<void> {
  const newIndex = new Map(docs.before.map((d, i) => [i, docs.order.indexOf(d.id)]));
  const emptied: string[] = [];
  const moved: { id: string; areas: TemplateFieldRow['areas'] }[] = [];
  for (const f of await loadTemplateFields(tx, templateId)) {
    const areas = f.areas
      .map((a) => ({ ...a, document: newIndex.get(a.document) ?? -1 }))
      .filter((a) => a.document >= 0);
    if (areas.length === 0) emptied.push(f.id);
    else moved.push({ id: f.id, areas });
  }
  await deleteTemplateFieldsById(tx, templateId, emptied);
  await setTemplateFieldAreas(tx, templateId, moved);
}
