import type { AreaBox, FieldType } from '@esign/domain';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { errorMessage, trpcClient } from '../../trpc.ts';
import { useToast } from '../../ui.tsx';
import { change, type History, redo, startHistory, undo } from './history.ts';
import { defaultSize, type EditorDoc, newField, roleColour, type Selection } from './model.ts';
import type { EditorState } from './operations.ts';
import * as ops from './operations.ts';
import { type PageInfo, PageView } from './page-view.tsx';
import { DocumentsPanel, Palette, RolesPanel } from './panels.tsx';
import { Properties } from './properties.tsx';
import { ConflictBanner, Toolbar } from './toolbar.tsx';
import { useAutosave } from './use-autosave.ts';

type Where = { doc: number; page: number };

/** The editing surface for one template: its history, selection, autosave and panels. */
export function Workspace({ templateId, initial }: { templateId: number; initial: EditorState }) {
  const [start] = useState(() => startHistory(ops.fromServer(initial)));
  const [history, setHistory] = useState<History>(start);
  const doc = history.present;
  const save = useAutosave(templateId, initial, doc, start.present);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [armed, setArmed] = useState<FieldType | null>(null);
  const [activeRole, setActiveRole] = useState(doc.roles[0] ?? 'Signer');
  const [current, setCurrent] = useState<Where>({ doc: doc.documents[0]!, page: 1 });
  const [zoom, setZoom] = useState(1);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const toast = useToast();

  const apply = useCallback(
    (fn: (d: EditorDoc) => EditorDoc) => setHistory((h) => change(h, fn(h.present))),
    [],
  );
  const pages = usePages(save.server, doc);
  const role = doc.roles.includes(activeRole) ? activeRole : doc.roles[0]!;

  const place = (type: FieldType, where: Where, box: AreaBox) => {
    const field = newField(doc, type, role, { doc: where.doc, page: where.page, ...box });
    apply((d) => ({ ...d, fields: [...d.fields, field] }));
    setSelection({ key: field.key, area: 0 });
    setFocusKey(field.key);
    setArmed(null);
  };
  const placeByKey = (type: FieldType) => {
    const onPage = doc.fields
      .flatMap((f) => f.areas)
      .filter((a) => a.doc === current.doc && a.page === current.page);
    const size = defaultSize(type);
    place(type, current, { x: 0.5 - size.w / 2, y: 0.08 + ((onPage.length * 0.06) % 0.84), ...size });
  };
  useFocusField(focusKey, doc, () => setFocusKey(null));
  useUndoKeys(setHistory);
  useRevealSelection(selection);

  const selected = selection ? doc.fields.find((f) => f.key === selection.key) : undefined;
  const onKeyCommand = (key: string, index: number, command: 'delete' | 'duplicate' | 'deselect') => {
    if (command === 'deselect') setSelection(null);
    else if (command === 'delete') {
      apply((d) => ops.removeArea(d, key, index));
      setSelection(null);
    } else {
      const out = ops.duplicateField(doc, key);
      apply(() => out.doc);
      setSelection({ key: out.key, area: 0 });
      setFocusKey(out.key);
    }
  };

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
        toast(
          'Someone else changed this template. Reload the page to see their version, then add the document.',
          'bad',
        );
        return;
      }
      const next = ops.fromServer(answer);
      setHistory(startHistory(next));
      setSelection(null);
      save.adopt(answer, next);
      toast(`Added “${answer.documents.at(-1)?.name}”`);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setAdding(false);
    }
  };
  const loadTheirs = (state: EditorState) => {
    const next = ops.fromServer(state);
    setHistory(startHistory(next));
    setSelection(null);
    save.adopt(state, next);
  };

  return (
    <div
      className={`ed${selected ? ' has-selection' : ''}`}
      style={{ '--ed-zoom': zoom } as React.CSSProperties}
    >
      <Toolbar
        name={doc.name}
        onName={(name) => apply((d) => ({ ...d, name }))}
        history={history}
        onUndo={() => setHistory(undo)}
        onRedo={() => setHistory(redo)}
        zoom={zoom}
        onZoom={setZoom}
        save={save}
        templateId={templateId}
        roles={doc.roles}
      />
      {save.conflict ? (
        <ConflictBanner
          conflict={save.conflict}
          onTheirs={() => loadTheirs(save.conflict!)}
          onMine={save.overwrite}
        />
      ) : null}
      <aside className="ed-side">
        <Palette armed={armed} onArm={setArmed} onPlace={placeByKey} />
        <RolesPanel
          roles={doc.roles}
          active={role}
          onActive={setActiveRole}
          onRename={(i, name) => {
            if (doc.roles[i] === activeRole) setActiveRole(name);
            apply((d) => ops.renameRole(d, i, name));
          }}
          onMove={(from, to) => apply((d) => ops.moveRole(d, from, to))}
          onAdd={() => apply(ops.addRole)}
        />
        <DocumentsPanel
          documents={doc.documents.map((id) => ({
            id,
            name: pages.names.get(id) ?? 'Document',
            pages: pages.count.get(id) ?? 0,
          }))}
          busy={adding}
          onMove={(from, to) => apply((d) => ops.moveDocument(d, from, to))}
          onRemove={(id) => apply((d) => ops.removeDocument(d, id))}
          onAdd={(f) => void addDocument(f)}
        />
      </aside>
      <main className="ed-pages" aria-label="Pages">
        {doc.documents.map((id) => (
          <section key={id} id={`doc-${id}`} className="ed-doc" aria-label={pages.names.get(id)}>
            {doc.documents.length > 1 ? <h2 className="ed-doc-title">{pages.names.get(id)}</h2> : null}
            {(pages.byDoc.get(id) ?? []).map((p) => (
              <PageView
                key={p.number}
                page={p}
                placed={placedOn(doc, id, p.number)}
                colourOf={(r) => roleColour(doc.roles, r)}
                selection={selection}
                armed={armed}
                onSelect={setSelection}
                onCommitArea={(key, index, box) => apply((d) => ops.setArea(d, key, index, box))}
                onPlace={place}
                onKeyCommand={onKeyCommand}
                onVisible={setCurrent}
              />
            ))}
          </section>
        ))}
      </main>
      <aside className="ed-props-side">
        {selected && selection ? (
          <Properties
            field={selected}
            areaIndex={selection.area}
            roles={doc.roles}
            pages={pages.all}
            onChange={(patch) => apply((d) => ops.updateField(d, selected.key, patch))}
            onOptions={(text) => apply((d) => ops.setOptions(d, selected.key, text))}
            onAddArea={(target) => {
              apply((d) => ops.addAreaOnPage(d, selected.key, target));
              setSelection({ key: selected.key, area: selected.areas.length });
              setFocusKey(selected.key);
            }}
            onDuplicate={() => onKeyCommand(selected.key, selection.area, 'duplicate')}
            onDelete={() => onKeyCommand(selected.key, selection.area, 'delete')}
            onClose={() => setSelection(null)}
          />
        ) : (
          <p className="ed-hint ed-panel">
            Select a field to set its name, role, options and whether it is required.
          </p>
        )}
      </aside>
    </div>
  );
}

function placedOn(doc: EditorDoc, docId: number, page: number) {
  return doc.fields.flatMap((field) =>
    field.areas.flatMap((area, index) =>
      area.doc === docId && area.page === page ? [{ field, area, index }] : [],
    ),
  );
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
        d.pages.map((p) => ({ ...p, doc: d.id, label: `${d.name}, page ${p.number} of ${d.pages.length}` })),
      );
    }
    const all = doc.documents.flatMap((id) =>
      (byDoc.get(id) ?? []).map((p) => ({ doc: id, page: p.number, label: p.label })),
    );
    return { byDoc, names, count, all };
  }, [server, doc.documents]);
}

/** Moves keyboard focus to a field just placed or duplicated, so arrow keys move it at once. */
function useFocusField(key: string | null, doc: EditorDoc, done: () => void) {
  useEffect(() => {
    if (!key) return;
    const f = doc.fields.find((x) => x.key === key);
    if (!f) return;
    const index = f.areas.length - 1;
    const el = document.querySelector<HTMLElement>(
      `.ed-field[data-field="${CSS.escape(f.name)}"][data-area="${index}"]`,
    );
    el?.focus();
    el?.scrollIntoView({ block: 'nearest' });
    done();
  }, [key, doc, done]);
}

/**
 * On a phone the selected field's properties cover the lower part of the screen: the field is
 * scrolled to the top of the pages so it stays in sight (and under the finger for the next move).
 */
function useRevealSelection(selection: Selection | null) {
  const key = selection ? `${selection.key}:${selection.area}` : null;
  useEffect(() => {
    if (!key || !window.matchMedia('(max-width: 900px)').matches) return;
    const el = document.querySelector<HTMLElement>('.ed-field.selected');
    const pages = el?.closest<HTMLElement>('.ed-pages');
    if (!el || !pages) return;
    const top = el.getBoundingClientRect().top - pages.getBoundingClientRect().top;
    const sheet =
      document.querySelector<HTMLElement>('.ed-props-side')?.getBoundingClientRect().top ??
      window.innerHeight;
    if (top < 0 || el.getBoundingClientRect().bottom > sheet - 16) pages.scrollTop += top - 48;
  }, [key]);
}

/** Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo, except while typing in a form control. */
function useUndoKeys(setHistory: (fn: (h: History) => History) => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey)) return;
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select')) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) setHistory(undo);
      else if ((k === 'z' && e.shiftKey) || k === 'y') setHistory(redo);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setHistory]);
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error('The file could not be read.'));
    r.readAsDataURL(file);
  });
}
