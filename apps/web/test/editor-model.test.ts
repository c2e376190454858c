import { describe, expect, it } from 'vitest';
import { change, redo, startHistory, undo } from '../dashboard/src/pages/editor/history.ts';
import { type EditorDoc, MAX_ROLES, newField } from '../dashboard/src/pages/editor/model.ts';
import * as ops from '../dashboard/src/pages/editor/operations.ts';

// The editor's pure parts: every change as EditorDoc → EditorDoc, undo/redo, and the save input.

const area = (doc: number, page: number) => ({ doc, page, x: 0.1, y: 0.1, w: 0.3, h: 0.05 });

function doc(): EditorDoc {
  const d: EditorDoc = { name: 'Lease', roles: ['Tenant', 'Landlord'], documents: [10, 20], fields: [] };
  const a = newField(d, 'text', 'Tenant', area(10, 1));
  const b = newField({ ...d, fields: [a] }, 'signature', 'Landlord', area(20, 2));
  return { ...d, fields: [a, b] };
}

describe('editor operations', () => {
  it('the save input names documents by their new position and drops empty options', () => {
    const d = ops.moveDocument(doc(), 1, 0);
    const pick = newField(d, 'select', 'Tenant', area(20, 1));
    const input = ops.toSaveInput(7, 3, {
      ...d,
      fields: [...d.fields, { ...pick, options: ['A', ' ', 'B'] }],
    });
    expect(input).toMatchObject({ id: 7, version: 3, documents: [20, 10], roles: ['Tenant', 'Landlord'] });
    expect(input.fields!.map((f) => [f.name, f.areas[0]!.document])).toEqual([
      ['Text Field 1', 1],
      ['Signature 1', 0],
      ['Select 1', 0],
    ]);
    expect(input.fields![2]!.options).toEqual(['A', 'B']);
    expect(input.fields![0]).not.toHaveProperty('options');
  });

  it('renaming a role moves its fields with it; reordering keeps them; at most 10 roles', () => {
    let d = ops.renameRole(doc(), 0, 'Renter');
    expect(d.fields[0]!.role).toBe('Renter');
    d = ops.moveRole(d, 0, 1);
    expect(d.roles).toEqual(['Landlord', 'Renter']);
    expect(d.fields.map((f) => f.role)).toEqual(['Renter', 'Landlord']);
    for (let i = 0; i < 20; i++) d = ops.addRole(d);
    expect(d.roles).toHaveLength(MAX_ROLES);
    expect(new Set(d.roles).size).toBe(MAX_ROLES);
  });

  it('removing a document removes the areas on it and fields left without areas; the last document stays', () => {
    const d = ops.addAreaOnPage(doc(), doc().fields[0]!.key, { doc: 20, page: 1 });
    const key = d.fields[0]!.key;
    const withSecond = { ...d, fields: [{ ...d.fields[0]!, key }, d.fields[1]!] };
    const removed = ops.removeDocument(withSecond, 20);
    expect(removed.documents).toEqual([10]);
    expect(removed.fields.map((f) => [f.name, f.areas.length])).toEqual([['Text Field 1', 1]]);
    expect(ops.removeDocument(removed, 10)).toBe(removed);
  });

  it('duplicate gives a new name and shifts the copy; deleting the last area deletes the field', () => {
    const d = doc();
    const { doc: dup, key } = ops.duplicateField(d, d.fields[0]!.key);
    const copy = dup.fields.find((f) => f.key === key)!;
    expect(copy.name).toBe('Text Field 2');
    expect(copy.areas[0]).toMatchObject({ x: 0.12, y: 0.12 });
    expect(ops.removeArea(dup, key, 0).fields).toHaveLength(2);
  });

  it('fromServer turns document indexes into ids and back', () => {
    const d = ops.fromServer({
      version: 4,
      documents: [
        { id: 5, name: 'a', pages: [] },
        { id: 9, name: 'b', pages: [] },
      ],
      template: {
        name: 'T',
        roles: ['R'],
        fields: [
          {
            id: 'u',
            name: 'F',
            type: 'text',
            role: 'R',
            required: false,
            areas: [{ page: 1, x: 0, y: 0, w: 0.1, h: 0.1, document: 1 }],
          },
        ],
      },
    } as never);
    expect(d.fields[0]!.areas[0]!.doc).toBe(9);
    expect(ops.toSaveInput(1, 4, d).fields![0]!.areas[0]!.document).toBe(1);
  });

  it('issue 46: a field’s conditions, formula, format and validation survive the editor’s save', () => {
    const logic = {
      show_when: { all: [{ field: 'Kind', op: 'equals', value: 'Company' }] },
      formula: '{A} * 2',
      format: { decimals: 0 },
      validation: { min: 1 },
    };
    const d = ops.fromServer({
      version: 1,
      documents: [{ id: 5, name: 'a', pages: [] }],
      template: {
        name: 'T',
        roles: ['R'],
        fields: [
          {
            id: 'u',
            name: 'F',
            type: 'number',
            role: 'R',
            required: true,
            areas: [{ page: 1, x: 0, y: 0, w: 0.1, h: 0.1, document: 0 }],
            ...logic,
          },
          {
            id: 'v',
            name: 'G',
            type: 'text',
            role: 'R',
            required: true,
            areas: [{ page: 1, x: 0, y: 0.2, w: 0.1, h: 0.1, document: 0 }],
          },
        ],
      },
    } as never);
    const [f, g] = ops.toSaveInput(1, 1, d).fields!;
    expect(f).toMatchObject(logic);
    expect(g).not.toHaveProperty('show_when');
    expect(g).not.toHaveProperty('formula');
  });
});

describe('undo and redo', () => {
  it('every change is one step; a new change after undo drops the redo steps', () => {
    const a = doc();
    const b = { ...a, name: 'B' };
    const c = { ...a, name: 'C' };
    let h = change(change(startHistory(a), b), c);
    h = undo(h);
    expect(h.present).toBe(b);
    h = redo(h);
    expect(h.present).toBe(c);
    h = change(undo(undo(h)), { ...a, name: 'D' });
    expect(h.future).toEqual([]);
    expect(undo(undo(startHistory(a))).present).toBe(a);
  });
});
