import { useEffect } from 'react';
import { background } from '../../background.ts';
import { msg } from '../../messages/index.ts';
import { type History, redo, undo } from './history.ts';
import { type EditorDoc, roleColour, type Selection } from './model.ts';
import type { EditorState } from './operations.ts';
import * as ops from './operations.ts';
import { PageView } from './page-view.tsx';
import { DocumentsPanel, Palette, RolesPanel } from './panels.tsx';
import { Properties } from './properties.tsx';
import { ConflictBanner, Toolbar } from './toolbar.tsx';
import { useWorkspace, type WorkspaceState } from './use-workspace.ts';

/** The editing surface for one template: its history, selection, autosave and panels. */
export function Workspace({ templateId, initial }: { templateId: number; initial: EditorState }) {
  const w = useWorkspace(templateId, initial);
  const { doc, save, selection, pages } = w;
  const selected = selection ? doc.fields.find((f) => f.key === selection.key) : undefined;
  useFocusField(w.focusKey, doc, () => w.setFocusKey(null));
  useUndoKeys(w.setHistory);
  useRevealSelection(selection);
  return (
    <div
      className={`ed${selected ? ' has-selection' : ''}`}
      style={{ '--ed-zoom': w.zoom } as React.CSSProperties}
    >
      <Toolbar
        name={doc.name}
        onName={(name) => w.apply((d) => ({ ...d, name }))}
        history={w.history}
        onUndo={() => w.setHistory(undo)}
        onRedo={() => w.setHistory(redo)}
        zoom={w.zoom}
        onZoom={w.setZoom}
        save={save}
        templateId={templateId}
        roles={doc.roles}
      />
      {save.conflict ? (
        <ConflictBanner
          conflict={save.conflict}
          onTheirs={() => w.loadTheirs(save.conflict!)}
          onMine={save.overwrite}
        />
      ) : null}
      <SidePanels w={w} />
      <main className="ed-pages" aria-label={msg('editor.pages')}>
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
                armed={w.armed}
                onSelect={w.setSelection}
                onCommitArea={(key, index, box) => w.apply((d) => ops.setArea(d, key, index, box))}
                onPlace={w.place}
                onKeyCommand={w.onKeyCommand}
                onVisible={w.setCurrent}
              />
            ))}
          </section>
        ))}
      </main>
      <aside className="ed-props-side">
        {selected && selection ? (
          <Properties
            field={selected}
            fields={doc.fields}
            areaIndex={selection.area}
            saveError={save.status === 'error' ? save.error : null}
            roles={doc.roles}
            pages={pages.all}
            onChange={(patch) => w.apply((d) => ops.updateField(d, selected.key, patch))}
            onOptions={(text) => w.apply((d) => ops.setOptions(d, selected.key, text))}
            onAddArea={(target) => w.addArea(selected, target)}
            onDuplicate={() => w.onKeyCommand(selected.key, selection.area, 'duplicate')}
            onDelete={() => w.onKeyCommand(selected.key, selection.area, 'delete')}
            onClose={() => w.setSelection(null)}
          />
        ) : (
          <p className="ed-hint ed-panel">{msg('editor.select_hint')}</p>
        )}
      </aside>
    </div>
  );
}

/** The palette, the roles and the documents. */
function SidePanels({ w }: { w: WorkspaceState }) {
  const { doc, pages } = w;
  return (
    <aside className="ed-side">
      <Palette armed={w.armed} onArm={w.setArmed} onPlace={w.placeByKey} />
      <RolesPanel
        roles={doc.roles}
        kinds={doc.roleKinds ?? {}}
        withFields={new Set(doc.fields.map((f) => f.role))}
        onKind={(role, kind) => w.apply((d) => ops.setRoleKind(d, role, kind))}
        active={w.role}
        onActive={w.setActiveRole}
        onRename={w.renameRole}
        onMove={(from, to) => w.apply((d) => ops.moveRole(d, from, to))}
        onAdd={() => w.apply(ops.addRole)}
      />
      <DocumentsPanel
        documents={doc.documents.map((id) => ({
          id,
          name: pages.names.get(id) ?? msg('editor.docs.unnamed'),
          pages: pages.count.get(id) ?? 0,
        }))}
        busy={w.adding}
        onMove={(from, to) => w.apply((d) => ops.moveDocument(d, from, to))}
        onRemove={(id) => w.apply((d) => ops.removeDocument(d, id))}
        onAdd={(f) => background(w.addDocument(f))}
      />
    </aside>
  );
}

function placedOn(doc: EditorDoc, docId: number, page: number) {
  return doc.fields.flatMap((field) =>
    field.areas.flatMap((area, index) =>
      area.doc === docId && area.page === page ? [{ field, area, index }] : [],
    ),
  );
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
