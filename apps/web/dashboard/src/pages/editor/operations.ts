import type { AppRouter } from '@esign/core';
import { type AreaBox, type FieldLogic, fitOnPage, isOptionFieldType } from '@esign/domain';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { msg, t } from '../../messages/index.ts';
import {
  type EditorArea,
  type EditorDoc,
  type EditorField,
  isType,
  MAX_ROLES,
  newKey,
  nextName,
} from './model.ts';

// Every change the editor makes, as pure functions from one EditorDoc to the next, plus the two
// translations to and from the server (templates.editor's answer, templates.editorSave's input).

export type EditorState = inferRouterOutputs<AppRouter>['templates']['editor'];
export type SaveInput = inferRouterInputs<AppRouter>['templates']['editorSave'];

const LOGIC_KEYS = ['show_when', 'required_when', 'formula', 'format', 'validation'] as const;

/** Issue 46: a field's form logic as the server gave it, kept through the editor's saves. */
function logicOf(f: Record<string, unknown>): FieldLogic | undefined {
  const kept = LOGIC_KEYS.filter((k) => f[k] !== undefined);
  return kept.length ? (Object.fromEntries(kept.map((k) => [k, f[k]])) as FieldLogic) : undefined;
}

export function fromServer(state: EditorState): EditorDoc {
  const ids = state.documents.map((d) => d.id);
  return {
    name: state.template.name,
    roles: [...state.template.roles],
    ...(state.template.role_kinds ? { roleKinds: { ...state.template.role_kinds } } : {}),
    documents: ids,
    fields: (state.template.fields ?? []).map((f) => ({
      key: newKey(),
      name: f.name ?? '',
      type: isType(f.type) ? f.type : 'text',
      role: f.role,
      required: f.required,
      options: f.options ?? [],
      logic: logicOf(f),
      areas: f.areas.map((a) => ({
        doc: ids[a.document] ?? ids[0]!,
        page: a.page,
        x: a.x,
        y: a.y,
        w: a.w,
        h: a.h,
      })),
    })),
  };
}

export function toSaveInput(id: number, version: number, doc: EditorDoc): SaveInput {
  return {
    id,
    version,
    name: doc.name.trim() || msg('editor.default.name'),
    roles: doc.roles,
    ...(doc.roleKinds
      ? { role_kinds: Object.fromEntries(doc.roles.map((r) => [r, doc.roleKinds?.[r] ?? 'signer'])) }
      : {}),
    documents: doc.documents,
    fields: doc.fields.map((f) => ({
      ...(f.name.trim() ? { name: f.name.trim() } : {}),
      type: f.type,
      role: f.role,
      required: f.required,
      ...(isOptionFieldType(f.type) ? { options: f.options.filter((o) => o.trim() !== '') } : {}),
      ...((f.logic ?? {}) as Partial<SaveInput['fields'] extends (infer T)[] | undefined ? T : never>),
      areas: f.areas.map((a) => ({
        document: doc.documents.indexOf(a.doc),
        page: a.page,
        ...fitOnPage(a),
      })),
    })),
  };
}

const mapField = (doc: EditorDoc, key: string, fn: (f: EditorField) => EditorField): EditorDoc => ({
  ...doc,
  fields: doc.fields.map((f) => (f.key === key ? fn(f) : f)),
});

export function updateField(
  doc: EditorDoc,
  key: string,
  patch: Partial<Omit<EditorField, 'key'>>,
): EditorDoc {
  return mapField(doc, key, (f) => ({ ...f, ...patch }));
}

export function setArea(doc: EditorDoc, key: string, index: number, box: AreaBox): EditorDoc {
  return mapField(doc, key, (f) => ({
    ...f,
    areas: f.areas.map((a, i) => (i === index ? { ...a, ...fitOnPage(box) } : a)),
  }));
}

/** Removes one area; a field without areas goes. */
export function removeArea(doc: EditorDoc, key: string, index: number): EditorDoc {
  const fields = doc.fields
    .map((f) => (f.key === key ? { ...f, areas: f.areas.filter((_, i) => i !== index) } : f))
    .filter((f) => f.areas.length > 0);
  return { ...doc, fields };
}

/** A copy of a field with a new name, its areas a little lower right (or up left at the edge). */
export function duplicateField(doc: EditorDoc, key: string): { doc: EditorDoc; key: string } {
  const f = doc.fields.find((x) => x.key === key);
  if (!f) return { doc, key };
  const shift = (a: EditorArea): EditorArea => {
    const dx = a.x + a.w + 0.02 <= 1 ? 0.02 : -0.02;
    const dy = a.y + a.h + 0.02 <= 1 ? 0.02 : -0.02;
    return { ...a, ...fitOnPage({ ...a, x: a.x + dx, y: a.y + dy }) };
  };
  const copy: EditorField = {
    ...f,
    key: newKey(),
    name: nextName(doc.fields, f.type),
    areas: f.areas.map(shift),
  };
  const at = doc.fields.indexOf(f) + 1;
  return {
    doc: { ...doc, fields: [...doc.fields.slice(0, at), copy, ...doc.fields.slice(at)] },
    key: copy.key,
  };
}

/** One more area of the same field (same name) on another page. */
export function addAreaOnPage(doc: EditorDoc, key: string, target: { doc: number; page: number }): EditorDoc {
  return mapField(doc, key, (f) => {
    const base = f.areas[f.areas.length - 1]!;
    return { ...f, areas: [...f.areas, { ...base, doc: target.doc, page: target.page }] };
  });
}

export function addRole(doc: EditorDoc): EditorDoc {
  if (doc.roles.length >= MAX_ROLES) return doc;
  const roleName = (number: number) => t('editor.default.role', { number });
  let n = doc.roles.length + 1;
  while (doc.roles.includes(roleName(n))) n++;
  return { ...doc, roles: [...doc.roles, roleName(n)] };
}

/** Renames a role and moves its fields with it (PATCH renames roles by position). */
export function renameRole(doc: EditorDoc, index: number, name: string): EditorDoc {
  const old = doc.roles[index];
  if (old === undefined || old === name) return doc;
  return {
    ...doc,
    roles: doc.roles.map((r, i) => (i === index ? name : r)),
    fields: doc.fields.map((f) => (f.role === old ? { ...f, role: name } : f)),
    ...(doc.roleKinds ? { roleKinds: renameKey(doc.roleKinds, old, name) } : {}),
  };
}

const renameKey = <T>(map: Record<string, T>, from: string, to: string): Record<string, T> =>
  Object.fromEntries(Object.entries(map).map(([k, v]) => [k === from ? to : k, v]));

/** Issue 47: a role approves or only reads (no fields on it), or signs. */
export function setRoleKind(doc: EditorDoc, role: string, kind: 'signer' | 'approver' | 'viewer'): EditorDoc {
  if (kind !== 'signer' && doc.fields.some((f) => f.role === role)) return doc;
  return { ...doc, roleKinds: { ...doc.roleKinds, [role]: kind } };
}

const move = <T>(list: T[], from: number, to: number): T[] => {
  if (to < 0 || to >= list.length || from === to) return list;
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
};

/** Signing order: the role moves, its fields keep it. */
export const moveRole = (doc: EditorDoc, from: number, to: number): EditorDoc => ({
  ...doc,
  roles: move(doc.roles, from, to),
});

export const moveDocument = (doc: EditorDoc, from: number, to: number): EditorDoc => ({
  ...doc,
  documents: move(doc.documents, from, to),
});

/** Removes a document (never the last one) with the areas on it; fields left without areas go. */
export function removeDocument(doc: EditorDoc, id: number): EditorDoc {
  if (doc.documents.length <= 1) return doc;
  const fields = doc.fields
    .map((f) => ({ ...f, areas: f.areas.filter((a) => a.doc !== id) }))
    .filter((f) => f.areas.length > 0);
  return { ...doc, documents: doc.documents.filter((d) => d !== id), fields };
}

export function setOptions(doc: EditorDoc, key: string, text: string): EditorDoc {
  return updateField(doc, key, { options: text.split('\n') });
}

export const fieldNeedsOptions = (f: EditorField) =>
  isOptionFieldType(f.type) && f.options.filter((o) => o.trim() !== '').length === 0;
