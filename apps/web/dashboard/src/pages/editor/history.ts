import type { EditorDoc } from './model.ts';

// Undo and redo over whole editor documents (they are small: names, roles, fields, order), so
// every change is one step and undoing never half-restores anything.

export interface History {
  past: EditorDoc[];
  present: EditorDoc;
  future: EditorDoc[];
}

const LIMIT = 200;

export const startHistory = (doc: EditorDoc): History => ({ past: [], present: doc, future: [] });

export function change(h: History, next: EditorDoc): History {
  if (next === h.present) return h;
  return { past: [...h.past, h.present].slice(-LIMIT), present: next, future: [] };
}

export function undo(h: History): History {
  const prev = h.past.at(-1);
  if (!prev) return h;
  return { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future] };
}

export function redo(h: History): History {
  const next = h.future[0];
  if (!next) return h;
  return { past: [...h.past, h.present], present: next, future: h.future.slice(1) };
}
