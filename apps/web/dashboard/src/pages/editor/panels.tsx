import { FIELD_TYPES, type FieldType } from '@esign/domain';
import { useEffect, useState } from 'react';
import { msg, t } from '../../messages/index.ts';
import { Button } from '../../ui.tsx';
import { MAX_ROLES, ROLE_COLOURS, TYPE_LABEL } from './model.ts';
import { DRAG_TYPE } from './page-view.tsx';

// The editor's side panels: the palette of the 14 field types, the roles, the documents.

export function Palette({
  armed,
  onArm,
  onPlace,
}: {
  armed: FieldType | null;
  onArm: (t: FieldType | null) => void;
  /** Keyboard activation: a field of this type on the page in view, selected and focused. */
  onPlace: (t: FieldType) => void;
}) {
  return (
    <section className="ed-panel" aria-labelledby="ed-palette">
      <h2 id="ed-palette">{msg('editor.palette.title')}</h2>
      <p className="ed-hint">{msg('editor.palette.hint')}</p>
      <div className="ed-palette">
        {FIELD_TYPES.map((t) => (
          <button
            key={t}
            type="button"
            draggable
            className={`ed-type${armed === t ? ' armed' : ''}`}
            aria-pressed={armed === t}
            data-type={t}
            onDragStart={(e) => {
              e.dataTransfer.setData(DRAG_TYPE, t);
              e.dataTransfer.effectAllowed = 'copy';
            }}
            onClick={(e) => {
              // detail 0: a key press, not a pointer click.
              if (e.detail === 0) onPlace(t);
              else onArm(armed === t ? null : t);
            }}
          >
            {TYPE_LABEL[t]}
          </button>
        ))}
      </div>
    </section>
  );
}

/** Issue 47: whether a role signs, approves or only reads; roles with fields only sign. */
function RoleKind(props: {
  role: string;
  kind: string;
  hasFields: boolean;
  onKind: (role: string, kind: 'signer' | 'approver' | 'viewer') => void;
}) {
  return (
    <select
      className="ed-role-kind"
      aria-label={t('editor.roles.kind', { role: props.role })}
      value={props.kind}
      onChange={(e) => props.onKind(props.role, e.target.value as 'signer' | 'approver' | 'viewer')}
    >
      <option value="signer">{msg('editor.roles.kind.signer')}</option>
      <option value="approver" disabled={props.hasFields}>
        {msg('editor.roles.kind.approver')}
      </option>
      <option value="viewer" disabled={props.hasFields}>
        {msg('editor.roles.kind.viewer')}
      </option>
    </select>
  );
}

export function RolesPanel(props: {
  roles: string[];
  /** Issue 47: each role's part, and which roles have fields (those only sign). */
  kinds: Record<string, string>;
  withFields: Set<string>;
  onKind: (role: string, kind: 'signer' | 'approver' | 'viewer') => void;
  active: string;
  onActive: (role: string) => void;
  onRename: (index: number, name: string) => void;
  onMove: (from: number, to: number) => void;
  onAdd: () => void;
}) {
  const { roles } = props;
  return (
    <section className="ed-panel" aria-labelledby="ed-roles">
      <h2 id="ed-roles">{msg('editor.roles.title')}</h2>
      <p className="ed-hint">{msg('editor.roles.hint')}</p>
      <ol className="ed-roles">
        {roles.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a role is its position (PATCH renames by position); its name is being edited
          <li key={i}>
            <input
              type="radio"
              name="active-role"
              aria-label={t('editor.roles.place_for', { role: r })}
              checked={props.active === r}
              onChange={() => props.onActive(r)}
            />
            <span
              className="ed-swatch"
              style={{ background: ROLE_COLOURS[i % ROLE_COLOURS.length] }}
              aria-hidden="true"
            />
            <RoleName index={i} roles={roles} onRename={props.onRename} />
            <RoleKind
              role={r}
              kind={props.kinds[r] ?? 'signer'}
              hasFields={props.withFields.has(r)}
              onKind={props.onKind}
            />
            <MoveButtons label={r} index={i} count={roles.length} onMove={props.onMove} />
          </li>
        ))}
      </ol>
      <Button small onClick={props.onAdd} disabled={roles.length >= MAX_ROLES}>
        {msg('editor.roles.add')}
      </Button>
      {roles.length >= MAX_ROLES ? (
        <p className="ed-hint">{t('editor.roles.max', { max: MAX_ROLES })}</p>
      ) : null}
    </section>
  );
}

export function DocumentsPanel(props: {
  documents: { id: number; name: string; pages: number }[];
  busy: boolean;
  onMove: (from: number, to: number) => void;
  onRemove: (id: number) => void;
  onAdd: (file: File) => void;
}) {
  const docs = props.documents;
  return (
    <section className="ed-panel" aria-labelledby="ed-docs">
      <h2 id="ed-docs">{msg('editor.docs.title')}</h2>
      <ol className="ed-docs">
        {docs.map((d, i) => (
          <li key={d.id}>
            <a href={`#doc-${d.id}`} className="ed-doc-name">
              {d.name} <span className="ed-hint">{t('editor.docs.pages', { count: d.pages })}</span>
            </a>
            <MoveButtons label={d.name} index={i} count={docs.length} onMove={props.onMove} />
            <Button
              small
              variant="ghost"
              aria-label={t('editor.docs.remove', { name: d.name })}
              disabled={docs.length <= 1}
              onClick={() => props.onRemove(d.id)}
            >
              ✕
            </Button>
          </li>
        ))}
      </ol>
      <label className={`btn btn-secondary btn-small${props.busy || docs.length >= 10 ? ' disabled' : ''}`}>
        {msg(props.busy ? 'editor.docs.adding' : 'editor.docs.add')}
        <input
          type="file"
          className="sr-only"
          accept="application/pdf,image/*"
          disabled={props.busy || docs.length >= 10}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) props.onAdd(file);
          }}
        />
      </label>
    </section>
  );
}

/**
 * A role's name as typed: a name goes to the template once it is a name (not empty, not another
 * role's), so clearing the box to retype never leaves fields without a role; leaving the box
 * shows the role's name again.
 */
function RoleName({
  index,
  roles,
  onRename,
}: {
  index: number;
  roles: string[];
  onRename: (index: number, name: string) => void;
}) {
  const name = roles[index] ?? '';
  const [draft, setDraft] = useState(name);
  // Undo, redo or a reload change the name from outside; typing ("New " on the way to "New role") does not.
  useEffect(() => setDraft((d) => (d.trim() === name ? d : name)), [name]);
  const trimmed = draft.trim();
  const taken = roles.some((r, i) => i !== index && r === trimmed);
  return (
    <input
      className="ed-role-name"
      aria-label={t('editor.roles.name', { number: index + 1 })}
      aria-invalid={trimmed === '' || taken || undefined}
      title={taken ? msg('editor.roles.name_taken') : undefined}
      value={draft}
      maxLength={100}
      onChange={(e) => {
        setDraft(e.target.value);
        const next = e.target.value.trim();
        if (next && !roles.some((r, i) => i !== index && r === next)) onRename(index, next);
      }}
      onBlur={() => setDraft(name)}
    />
  );
}

/** ↑ and ↓ for an item of an ordered list. */
function MoveButtons(props: {
  label: string;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
}) {
  const { label, index, count, onMove } = props;
  return (
    <>
      <Button
        small
        variant="ghost"
        aria-label={t('editor.move_up', { name: label })}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        ↑
      </Button>
      <Button
        small
        variant="ghost"
        aria-label={t('editor.move_down', { name: label })}
        disabled={index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        ↓
      </Button>
    </>
  );
}
