/**
 * Fillable AcroForm fields → detected fields (ISO 32000-1 §12.7).
 *
 * | PDF field                                  | field type  | options                           |
 * |--------------------------------------------|-------------|-----------------------------------|
 * | text (Tx)                                  | `text`      |                                   |
 * | check box (Btn)                            | `checkbox`  |                                   |
 * | check boxes sharing a name, distinct values | `radio`     | each widget's export value        |
 * | radio group (Btn, Radio flag)              | `radio`     | each widget's export value        |
 * | combo box / list box (Ch)                  | `select`    | display texts of /Opt             |
 * | multi-select list box (Ch, MultiSelect)    | `multiple`  | display texts of /Opt             |
 * | signature (Sig)                            | `signature` |                                   |
 *
 * Push buttons, read-only fields and fields without a visible widget are skipped with a warning.
 * `name` is the fully qualified field name (`parent.child`); every widget is one area (in widget
 * order, so `areas[i]` is the widget whose export value is `options[i]` for radio groups);
 * `required` is the field's Required flag, and always true for signature fields.
 */
import type { PDF, PdfDict, PdfObject, PdfRef } from '@libpdf/core';
import { displayBounds, displayRectToArea, type PageGeometry } from './geometry.ts';
import {
  asArray,
  asDict,
  asText,
  deref,
  get,
  getArray,
  getDict,
  getName,
  getNumber,
  items,
  numbers,
  type ObjCtx,
  refKey,
} from './pdf-objects.ts';
import type { DetectedField, FieldArea, FieldType } from './types.ts';

const FF_READ_ONLY = 1 << 0;
const FF_REQUIRED = 1 << 1;
const FF_RADIO = 1 << 15;
const FF_PUSHBUTTON = 1 << 16;
const FF_MULTI_SELECT = 1 << 21;
const ANNOT_HIDDEN = 1 << 1;
const ANNOT_NO_VIEW = 1 << 5;

const MAX_FIELD_DEPTH = 32;
const MAX_FIELDS = 10_000;

export interface FormScanResult {
  fields: DetectedField[];
  /** True when a signature field already holds a signature (a rewrite would invalidate it). */
  hasSignedSignatures: boolean;
}

interface PageLookup {
  byAnnotRef: Map<string, number>;
  byAnnotDict: WeakMap<PdfDict, number>;
  byPageRef: Map<string, number>;
}

function buildPageLookup(ctx: ObjCtx, pdf: PDF): PageLookup {
  const lookup: PageLookup = { byAnnotRef: new Map(), byAnnotDict: new WeakMap(), byPageRef: new Map() };
  pdf.getPages().forEach((page, index) => {
    lookup.byPageRef.set(refKey(page.ref), index);
    const annots = getArray(ctx, page.dict, 'Annots');
    if (!annots) return;
    for (let i = 0; i < annots.length; i++) {
      const raw = annots.at(i);
      if (raw?.type === 'ref') {
        if (!lookup.byAnnotRef.has(refKey(raw))) lookup.byAnnotRef.set(refKey(raw), index);
      } else {
        const d = asDict(raw);
        if (d) lookup.byAnnotDict.set(d, index);
      }
    }
  });
  return lookup;
}

/** Export (on-state) names of a button widget, from its normal appearances. */
function onStates(ctx: ObjCtx, widget: PdfDict): string[] {
  const n = asDict(get(ctx, getDict(ctx, widget, 'AP'), 'N'));
  if (!n) return [];
  const out: string[] = [];
  for (const k of n.keys()) if (k.value !== 'Off') out.push(k.value);
  return out;
}

interface Terminal {
  name: string;
  dict: PdfDict;
  ft: string | undefined;
  ff: number;
  widgets: { dict: PdfDict; ref: PdfRef | undefined }[];
}

export function extractFormFields(
  ctx: ObjCtx,
  pdf: PDF,
  geometries: PageGeometry[],
  warn: (message: string) => void,
): FormScanResult {
  const result: FormScanResult = { fields: [], hasSignedSignatures: false };
  const acroForm = getDict(ctx, pdf.getCatalog(), 'AcroForm');
  const roots = getArray(ctx, acroForm, 'Fields');
  if (!acroForm || !roots || roots.length === 0) {
    if (acroForm && get(ctx, acroForm, 'XFA'))
      warn('The PDF contains an XFA form, which is not supported; its fields were not imported');
    return result;
  }
  const lookup = buildPageLookup(ctx, pdf);
  for (const t of collectTerminals(ctx, roots)) {
    if (t.ft === 'Sig' && get(ctx, t.dict, 'V')) result.hasSignedSignatures = true;
    const field = toField(ctx, t, { lookup, geometries, warn });
    if (field) result.fields.push(field);
  }
  return result;
}

/** The terminal fields of the form tree (fields whose kids, if any, are only widgets). */
function collectTerminals(ctx: ObjCtx, roots: NonNullable<ReturnType<typeof getArray>>): Terminal[] {
  const terminals: Terminal[] = [];
  const seen = new Set<PdfDict>();
  const visit = (
    raw: PdfObject | undefined,
    parentName: string,
    ft: string | undefined,
    ff: number,
    depth: number,
  ) => {
    const dict = asDict(deref(ctx, raw));
    if (!dict || seen.has(dict) || depth > MAX_FIELD_DEPTH || terminals.length >= MAX_FIELDS) return;
    seen.add(dict);
    const partial = asText(get(ctx, dict, 'T'));
    const name = partial === undefined ? parentName : parentName ? `${parentName}.${partial}` : partial;
    const myFt = getName(ctx, dict, 'FT') ?? ft;
    const myFf = getNumber(ctx, dict, 'Ff') ?? ff;
    const kids = kidsOf(ctx, dict);
    // Kids without a partial name are widgets of this field; kids with one are child fields.
    const childFields = kids.filter((k) => get(ctx, k.dict, 'T') !== undefined);
    if (childFields.length > 0) {
      for (const k of childFields) visit(k.ref ?? k.dict, name, myFt, myFf, depth + 1);
      return;
    }
    const widgets = kids.length > 0 ? kids : [{ dict, ref: raw?.type === 'ref' ? raw : undefined }];
    terminals.push({ name, dict, ft: myFt, ff: myFf, widgets });
  };
  for (let i = 0; i < roots.length; i++) visit(roots.at(i), '', undefined, 0, 0);
  return terminals;
}

function kidsOf(ctx: ObjCtx, dict: PdfDict): Terminal['widgets'] {
  const kidsRaw = getArray(ctx, dict, 'Kids');
  const kids: Terminal['widgets'] = [];
  if (!kidsRaw) return kids;
  for (let i = 0; i < kidsRaw.length; i++) {
    const k = kidsRaw.at(i);
    const kd = asDict(deref(ctx, k));
    if (kd) kids.push({ dict: kd, ref: k?.type === 'ref' ? k : undefined });
  }
  return kids;
}

interface FieldScan {
  lookup: PageLookup;
  geometries: PageGeometry[];
  warn: (message: string) => void;
}

/** The field type of a terminal, or null (with a warning when it is not a push button) to skip it. */
function fieldTypeOf(t: Terminal, label: string, warn: (m: string) => void): FieldType | null {
  let type: FieldType;
  switch (t.ft) {
    case 'Tx':
      type = 'text';
      break;
    case 'Btn':
      if (t.ff & FF_PUSHBUTTON) return null;
      type = t.ff & FF_RADIO ? 'radio' : 'checkbox';
      break;
    case 'Ch':
      type = t.ff & FF_MULTI_SELECT ? 'multiple' : 'select';
      break;
    case 'Sig':
      type = 'signature';
      break;
    default:
      warn(`Form field "${label}" has an unknown type and was skipped`);
      return null;
  }
  if (t.ff & FF_READ_ONLY) {
    warn(`Form field "${label}" is read-only and was skipped`);
    return null;
  }
  return type;
}

/** The visible widgets' areas and, for buttons, their export values (in widget order). */
function widgetAreas(ctx: ObjCtx, t: Terminal, type: FieldType, scan: FieldScan) {
  const areas: FieldArea[] = [];
  const exportValues: string[] = [];
  const opt = items(ctx, getArray(ctx, t.dict, 'Opt'));
  t.widgets.forEach((w, index) => {
    const flags = getNumber(ctx, w.dict, 'F') ?? 0;
    if (flags & (ANNOT_HIDDEN | ANNOT_NO_VIEW)) return;
    let page = w.ref ? scan.lookup.byAnnotRef.get(refKey(w.ref)) : scan.lookup.byAnnotDict.get(w.dict);
    if (page === undefined) {
      const p = w.dict.get('P');
      if (p?.type === 'ref') page = scan.lookup.byPageRef.get(refKey(p));
    }
    const rect = numbers(ctx, getArray(ctx, w.dict, 'Rect'));
    if (page === undefined || !rect || rect.length !== 4) return;
    const g = scan.geometries[page];
    if (!g) return;
    const [l, tp, r, b] = displayBounds(g, [rect[0]!, rect[1]!, rect[2]!, rect[3]!]);
    const area = displayRectToArea(g, page + 1, l, tp, r, b);
    if (!area) return;
    areas.push(area);
    if (type === 'radio' || type === 'checkbox') {
      // With /Opt, appearance states are indices and /Opt holds the export values.
      const fromOpt = asText(opt[index]);
      exportValues.push(fromOpt ?? onStates(ctx, w.dict)[0] ?? String(index));
    }
  });
  return { areas, exportValues, opt };
}

/** Display texts of a choice field's /Opt (pairs give [export, display]). */
function choiceOptions(ctx: ObjCtx, opt: ReturnType<typeof items>): string[] {
  return [
    ...new Set(
      opt
        .map((o) => {
          const pair = asArray(o);
          return pair ? (asText(deref(ctx, pair.at(1))) ?? asText(deref(ctx, pair.at(0)))) : asText(o);
        })
        .filter((o): o is string => o !== undefined && o !== ''),
    ),
  ];
}

/** One terminal as a template field, or null (with a warning) when it is skipped. */
function toField(ctx: ObjCtx, t: Terminal, scan: FieldScan): DetectedField | null {
  const label = t.name || '(unnamed)';
  let type = fieldTypeOf(t, label, scan.warn);
  if (!type) return null;
  const { areas, exportValues, opt } = widgetAreas(ctx, t, type, scan);
  if (areas.length === 0) {
    scan.warn(`Form field "${label}" has no visible widget on any page and was skipped`);
    return null;
  }
  let options: string[] | undefined;
  if (type === 'checkbox' && new Set(exportValues).size > 1) type = 'radio';
  if (type === 'radio') {
    options = [...new Set(exportValues)];
  } else if (type === 'select' || type === 'multiple') {
    options = choiceOptions(ctx, opt);
    if (options.length === 0) {
      scan.warn(`Form field "${label}" is a choice field without options and was skipped`);
      return null;
    }
  }
  const field: DetectedField = {
    type,
    required: type === 'signature' || (t.ff & FF_REQUIRED) !== 0,
    areas,
    source: 'form',
  };
  if (t.name) field.name = t.name;
  if (options) field.options = options;
  return field;
}
