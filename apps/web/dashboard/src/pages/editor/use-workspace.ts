import type { AreaBox, FieldType } from '@esign/domain';
import { useCallback, useMemo, useState } from 'react';
import { msg, t } from '../../messages/index.ts';
import { errorMessage, trpcClient } from '../../trpc.ts';
import { useToast } from '../../ui.tsx';
import { change, type History, startHistory } from './history.ts';
import { defaultSize, type EditorDoc, type EditorField, newField, type Selection } from './model.ts';
import type { EditorState } from './operations.ts';
import * as ops from './operations.ts';
import type { PageInfo } from './page-view.tsx';
import { type Autosave, useAutosave } from './use-autosave.ts';

// The editor's state (history, selection, the type being placed, the role new fields get, the
// page in view, zoom) and every action on it, for the view in workspace.tsx.

export type Where = { doc: number; page: number };
export type WorkspaceState = ReturnType<typeof useWorkspace>;

export function useWorkspace(templateId: number, initial: EditorState) {
  const [start] = useState(() => startHistory(ops.fromServer(initial)));
  const [history, setHistory] = useState<History>(start);
  const doc = history.present;
  const save = useAutosave(templateId, initial, doc, start.present);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [armed, setArmed] = useState<FieldType | null>(null);
  const [activeRole, setActiveRole] = useState(doc.roles[0] ?? msg('editor.default.first_role'));
  const [current, setCurrent] = useState<Where>({ doc: doc.documents[0]!, page: 1 });
  const [zoom, setZoom] = useState(1);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const apply = useCallback(
    (fn: (d: EditorDoc) => EditorDoc) => setHistory((h) => change(h, fn(h.present))),
    [],
  );
  const role = doc.roles.includes(activeRole) ? activeRole : doc.roles[0]!;
  const select = (key: string, area: number, focus = true) => {
    setSelection({ key, area });
    if (focus) setFocusKey(key);
  };
  const reset = (state: EditorState) => {
    const next = ops.fromServer(state);
    setHistory(startHistory(next));
    setSelection(null);
    save.adopt(state, next);
  };

  const place = (type: FieldType, where: Where, box: AreaBox) => {
    const field = newField(doc, type, role, { doc: where.doc, page: where.page, ...box });
    apply((d) => ({ ...d, fields: [...d.fields, field] }));
    select(field.key, 0);
    setArmed(null);
  };
  /** Keyboard placement: on the page in view, centred, each new field a little lower. */
  const placeByKey = (type: FieldType) => {
    const here = doc.fields
      .flatMap((f) => f.areas)
      .filter((a) => a.doc === current.doc && a.page === current.page);
    const size = defaultSize(type);
    place(type, current, { x: 0.5 - size.w / 2, y: 0.08 + ((here.length * 0.06) % 0.84), ...size });
  };
  const onKeyCommand = (key: string, index: number, command: 'delete' | 'duplicate' | 'deselect') => {
    if (command === 'deselect') return setSelection(null);
    if (command === 'delete') {
      apply((d) => ops.removeArea(d, key, index));
      return setSelection(null);
    }
    const out = ops.duplicateField(doc, key);
    apply(() => out.doc);
    select(out.key, 0);
  };
  const addArea = (field: EditorField, target: Where) => {
    apply((d) => ops.addAreaOnPage(d, field.key, target));
    select(field.key, field.areas.length);
  };
  const renameRole = (index: number, name: string) => {
    if (doc.roles[index] === activeRole) setActiveRole(name);
    apply((d) => ops.renameRole(d, index, name));
  };
  /** Zooming keeps the same place of the document in view (same share of the scroll height). */
  const zoomTo = (z: number) => {
    const el = document.querySelector<HTMLElement>('.ed-pages');
    const ratio = el && el.scrollHeight > 0 ? el.scrollTop / el.scrollHeight : 0;
    setZoom(z);
    requestAnimationFrame(() => {
      if (el) el.scrollTop = ratio * el.scrollHeight;
    });
  };
  const docs = useDocumentUpload(templateId, save, reset);
  return {
    ...{ doc, history, setHistory, apply, save, pages: usePages(save.server, doc), role, setActiveRole },
    ...{ selection, setSelection, armed, setArmed, setCurrent, zoom, setZoom: zoomTo, focusKey, setFocusKey },
    ...{ place, placeByKey, onKeyCommand, addArea, renameRole, loadTheirs: reset, ...docs },
  };
}

/** Add document: saves what is pending, uploads, then the editor starts from the server's answer. */
function useDocumentUpload(templateId: number, save: Autosave, reset: (state: EditorState) => void) {
  const [adding, setAdding] = useState(false);
  const toast = useToast();
  const addDocument = async (file: File) => {
    setAdding(true);
    try {
      if (!(await save.flush())) return;
      const answer = await trpcClient.templates.addDocument.mutate({
        id: templateId,
        version: save.version(),
        name: file.name,
        file: await readAsDataUrl(file),
      });
      if (answer.status === 'conflict') {
        toast(msg('editor.docs.conflict'), 'bad');
        return;
      }
      reset(answer);
      toast(t('editor.docs.added', { name: answer.documents.at(-1)?.name }));
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setAdding(false);
    }
  };
  return { adding, addDocument };
}

/** Page images and names by document id, from the server's latest answer. */
function usePages(server: EditorState, doc: EditorDoc) {
  return useMemo(() => {
    const byDoc = new Map<number, PageInfo[]>();
    const names = new Map<number, string>();
    const count = new Map<number, number>();
    for (const d of server.documents) {
      names.set(d.id, d.name);
      count.set(d.id, d.pages.length);
      byDoc.set(
        d.id,
        d.pages.map((p) => ({
          ...p,
          doc: d.id,
          label: t('editor.page', { document: d.name, page: p.number, pages: d.pages.length }),
        })),
      );
    }
    const all = doc.documents.flatMap((id) =>
      (byDoc.get(id) ?? []).map((p) => ({ doc: id, page: p.number, label: p.label })),
    );
    return { byDoc, names, count, all };
  }, [server, doc.documents]);
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error(msg('editor.docs.read_failed')));
    r.readAsDataURL(file);
  });
}
