import { PDF, PdfArray, PdfDict, type PdfObject, PdfRef, PdfStream } from '@libpdf/core';

// What each incremental update of a signed PDF changed (ISO 32000-2 §7.5.6), classified the way
// a PAdES validator does: a DSS, document timestamps and further (invisible) signatures are
// allowed after a signature; form filling only where a certification signature with P ≥ 2
// allows it; anything else (page content, resources, annotations, pages, the catalog, any other
// object) is a modification of what was signed. Each revision is loaded on its own (the bytes up
// to its %%EOF) and compared object by object with the previous one, walking every object the
// newer revision can reach from its catalog.

type ChangeKind =
  | 'dss'
  | 'document_timestamp'
  | 'signature'
  | 'form_fill'
  | 'page_content'
  | 'annotation'
  | 'pages'
  | 'form'
  | 'catalog'
  | 'object'
  | 'appended_bytes'
  | 'unreadable_revision';

export interface RevisionChange {
  /** 1-based revision of the file that made the change (revision 1 is the original file). */
  revision: number;
  kind: ChangeKind;
  /** 1-based page the change shows on, when it belongs to a page. */
  page: number | null;
  description: string;
}

/** Kinds that are always allowed after a signature (PAdES long-term validation). */
const LTV_KINDS = new Set<ChangeKind>(['dss', 'document_timestamp']);

/**
 * Whether a change is allowed after a signature, given the document's certification level
 * (DocMDP P of the certification signature at or before it; null when not certified).
 */
export function isAllowedChange(change: RevisionChange, docMdp: number | null): boolean {
  if (LTV_KINDS.has(change.kind)) return true;
  if (change.kind === 'signature') return docMdp !== 1;
  if (change.kind === 'form_fill') return docMdp !== null && docMdp >= 2;
  return false;
}

/** Byte offsets where each revision ends (just after `%%EOF` and its end-of-line). */
export function revisionEnds(pdf: Uint8Array): number[] {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const ends: number[] = [];
  const re = /%%EOF(\r\n|\r|\n)?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) ends.push(m.index + m[0].length);
  return ends;
}

/** Objects one revision's walk visits at most; a larger file is reported, not half-checked. */
export const MAX_OBJECTS = 200_000;

type Resolve = (ref: PdfRef) => PdfObject | null;

const key = (ref: PdfRef) => `${ref.objectNumber} ${ref.generation}`;

/**
 * Every object reachable from `roots`, not following `/Parent` and `/P` back-links. A reference
 * is recorded even when it resolves to nothing (a freed or missing object); references whose key
 * is in `stop` are recorded but not followed.
 */
function reachable(
  resolve: Resolve,
  roots: PdfObject[],
  into = new Map<string, PdfRef>(),
  max = MAX_OBJECTS,
  stop?: Set<string>,
): Map<string, PdfRef> {
  const stack = [...roots];
  while (stack.length > 0 && into.size < max) {
    const obj = stack.pop()!;
    if (obj instanceof PdfRef) {
      if (into.has(key(obj))) continue;
      into.set(key(obj), obj);
      if (stop?.has(key(obj))) continue;
      const target = resolve(obj);
      if (target) stack.push(target);
    } else if (obj instanceof PdfDict) {
      for (const [name, value] of obj) if (name.value !== 'Parent' && name.value !== 'P') stack.push(value);
    } else if (obj instanceof PdfArray) {
      for (const value of obj) stack.push(value);
    }
  }
  return into;
}

/** Structural equality; references compare by number, streams by dictionary and raw data. */
function sameObject(a: PdfObject | null | undefined, b: PdfObject | null | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.type !== b.type) return false;
  if (a instanceof PdfRef) return b instanceof PdfRef && key(a) === key(b);
  if (a instanceof PdfArray) {
    const bb = b as PdfArray;
    return a.length === bb.length && a.toArray().every((v, i) => sameObject(v, bb.at(i)));
  }
  if (a instanceof PdfDict) {
    const bb = b as PdfDict;
    if (a.size !== bb.size) return false;
    for (const [name, value] of a) if (!sameObject(value, bb.get(name))) return false;
    if (a instanceof PdfStream)
      return Buffer.from((a as PdfStream).data).equals(Buffer.from((bb as PdfStream).data));
    return true;
  }
  return primitive(a) === primitive(b);
}

function primitive(obj: PdfObject): string {
  const o = obj as unknown as { value?: unknown; bytes?: Uint8Array };
  if (o.bytes) return `${obj.type}:${Buffer.from(o.bytes).toString('hex')}`;
  return `${obj.type}:${String(o.value)}`;
}

/** Keys whose values differ between two dictionaries. */
function changedKeys(a: PdfDict | null, b: PdfDict): string[] {
  const names = new Set<string>();
  for (const [name] of b) names.add(name.value);
  if (a) for (const [name] of a) names.add(name.value);
  return [...names].filter((n) => !a || !sameObject(a.get(n), b.get(n)));
}

function typeOf(dict: PdfDict | null | undefined): string | null {
  return dict?.getName('Type')?.value ?? null;
}

function isZeroArea(dict: PdfDict): boolean {
  const rect = dict.getArray('Rect');
  if (!rect) return true;
  const n = rect.toArray().map((v) => Number((v as unknown as { value?: number }).value ?? 0));
  const hidden = (Number((dict.get('F') as unknown as { value?: number })?.value ?? 0) & 2) !== 0;
  return hidden || Math.abs((n[2] ?? 0) - (n[0] ?? 0)) * Math.abs((n[3] ?? 0) - (n[1] ?? 0)) === 0;
}

/** A signature field and every widget it has (itself, or its /Kids) are zero-size or hidden. */
function invisible(field: PdfDict, resolve: Resolve): boolean {
  const kids = resolveArray(resolve, field.get('Kids'))?.toArray() ?? [];
  return (
    isZeroArea(field) &&
    kids.every((kid) => {
      const widget = kid instanceof PdfRef ? resolve(kid) : kid;
      return widget instanceof PdfDict && isZeroArea(widget);
    })
  );
}

/** What the newer revision holds, for classifying its objects. */
interface Landscape {
  resolve: Resolve;
  /** object key → 1-based pages that reach it (new signature fields are reached, not entered) */
  pagesOf: Map<string, Set<number>>;
  pageIndex: Map<string, number>;
  /** A page's /Annots held as an indirect array: its key → the page. */
  annotsArrays: Map<string, number>;
  /** The AcroForm's /Fields when it is an indirect array. */
  fieldsArray: string | null;
  dss: Set<string>;
  /** What only the catalog's /Extensions, /Metadata or /MarkInfo reach (no page shows it). */
  catalogMetadata: Set<string>;
  /**
   * New invisible signature fields and what only they reach (their /V dictionary, their zero-size
   * widget's appearance): never an object a page, the catalog or another field also reaches.
   */
  signatureParts: Map<string, ChangeKind>;
  /** Every field of the form is a signature field (no appearance a reader could regenerate). */
  onlySignatureFields: boolean;
}

/** Catalog entries PAdES LTA updates may change besides /DSS and /AcroForm (no page shows them). */
const CATALOG_METADATA = new Set(['Extensions', 'Metadata', 'MarkInfo', 'Version']);

function resolveDict(resolve: Resolve, value: PdfObject | undefined): PdfDict | null {
  const obj = value instanceof PdfRef ? resolve(value) : value;
  return obj instanceof PdfDict ? obj : null;
}

function resolveArray(resolve: Resolve, value: PdfObject | undefined): PdfArray | undefined {
  const obj = value instanceof PdfRef ? resolve(value) : value;
  return obj instanceof PdfArray ? obj : undefined;
}

/** Signature fields the newer revision adds, invisible (zero-size or hidden widget), by kind. */
function newSignatureFields(
  pdf: PDF,
  resolve: Resolve,
  older: Resolve,
): Map<string, { ref: PdfRef; kind: ChangeKind }> {
  const found = new Map<string, { ref: PdfRef; kind: ChangeKind }>();
  for (const field of safe(() => pdf.getForm()?.getFields()) ?? []) {
    const dict = field.getDict();
    const ref = pdf.context.getRef(dict);
    if (!ref || older(ref) || dict.getName('FT')?.value !== 'Sig' || !invisible(dict, resolve)) continue;
    const sig = resolveDict(resolve, dict.get('V'));
    const kind: ChangeKind = typeOf(sig) === 'DocTimeStamp' ? 'document_timestamp' : 'signature';
    found.set(key(ref), { ref, kind });
  }
  return found;
}

function landscape(pdf: PDF, resolve: Resolve, older: Resolve): Landscape {
  const fields = newSignatureFields(pdf, resolve, older);
  const stop = new Set(fields.keys());
  const pagesOf = new Map<string, Set<number>>();
  const pageIndex = new Map<string, number>();
  const annotsArrays = new Map<string, number>();
  const pages = pdf.getPages();
  pages.forEach((page, i) => {
    const ref = (page as unknown as { ref: PdfRef }).ref;
    pageIndex.set(key(ref), i + 1);
    const annots = page.dict.get('Annots');
    if (annots instanceof PdfRef) annotsArrays.set(key(annots), i + 1);
    for (const k of reachable(resolve, [ref], new Map(), MAX_OBJECTS, stop).keys()) {
      const set = pagesOf.get(k) ?? new Set<number>();
      set.add(i + 1);
      pagesOf.set(k, set);
    }
  });
  // What the pages draw themselves (their annotations aside), walked only when a filled field needs it.
  const content = () => {
    const drawn = pages.flatMap((page) =>
      [...page.dict].filter(([n]) => n.value !== 'Annots' && n.value !== 'Parent').map(([, v]) => v),
    );
    return new Set(reachable(resolve, drawn).keys());
  };
  const catalog = pdf.getCatalog();
  const entries = (skip: (name: string) => boolean) =>
    [...catalog].filter(([name]) => !skip(name.value)).map(([, value]) => value);
  // Validation data is what only the DSS reaches, catalog metadata what only /Extensions,
  // /Metadata... reach: an object the document also uses (a page's content referenced from the
  // DSS, say) is judged as what it is, never waved through. One walk of the rest of the catalog.
  const dssRoot = catalog.get('DSS');
  const metadataRoots = entries((n) => !CATALOG_METADATA.has(n));
  const rest =
    dssRoot || metadataRoots.length > 0
      ? reachable(
          resolve,
          entries((n) => n === 'DSS' || CATALOG_METADATA.has(n)),
        )
      : new Map<string, PdfRef>();
  const dssReach = dssRoot ? reachable(resolve, [dssRoot]) : new Map<string, PdfRef>();
  const metadataReach = reachable(resolve, metadataRoots);
  const dss = new Set([...dssReach.keys()].filter((k) => !rest.has(k) && !metadataReach.has(k)));
  const catalogMetadata = new Set([...metadataReach.keys()].filter((k) => !rest.has(k) && !dssReach.has(k)));
  // What the document shows or uses besides the new fields: every catalog entry but the DSS and
  // the form's field list, the form's other entries, each page (new fields recorded, not entered).
  const acroForm = resolveDict(resolve, catalog.get('AcroForm'));
  const signatureParts = new Map<string, ChangeKind>();
  if (fields.size > 0) {
    const shownRoots = entries((n) => n === 'DSS' || n === 'AcroForm');
    if (acroForm) shownRoots.push(...[...acroForm].filter(([n]) => n.value !== 'Fields').map(([, v]) => v));
    const shown = reachable(resolve, shownRoots, new Map(), MAX_OBJECTS, stop);
    for (const [k, { ref, kind }] of fields) {
      signatureParts.set(k, kind);
      for (const part of reachable(resolve, [ref], new Map(), MAX_OBJECTS).keys()) {
        if (!shown.has(part) && !signatureParts.has(part)) signatureParts.set(part, kind);
      }
    }
  }
  markFilledFields(pdf, resolve, older, signatureParts, content);
  const fieldsValue = acroForm?.get('Fields');
  const allFields = safe(() => pdf.getForm()?.getFields()) ?? [];
  return {
    resolve,
    pagesOf,
    pageIndex,
    annotsArrays,
    fieldsArray: fieldsValue instanceof PdfRef ? key(fieldsValue) : null,
    dss,
    catalogMetadata,
    signatureParts,
    onlySignatureFields: allFields.every((f) => f.getDict().getName('FT')?.value === 'Sig'),
  };
}

/**
 * Form fields (and their widgets) whose only changes are the value and its appearance: the new
 * appearance streams they reach are part of the form filling, not new page content, unless a
 * page's own content (not its annotations) reaches them too.
 */
function markFilledFields(
  pdf: PDF,
  resolve: Resolve,
  older: Resolve,
  parts: Map<string, ChangeKind>,
  content: () => Set<string>,
): void {
  let drawn: Set<string> | undefined;
  for (const field of safe(() => pdf.getForm()?.getFields()) ?? []) {
    const dict = field.getDict();
    const ref = pdf.context.getRef(dict);
    const before = ref ? older(ref) : null;
    if (!ref || !(before instanceof PdfDict) || dict.getName('FT')?.value === 'Sig') continue;
    const keys = changedKeys(before, dict);
    if (keys.length === 0 || !keys.every((n) => n === 'V' || n === 'AS' || n === 'AP')) continue;
    const kids = (dict.getArray('Kids', resolve)?.toArray() ?? []).map((k) =>
      k instanceof PdfRef ? resolve(k) : k,
    );
    for (const w of [dict, ...kids]) {
      const ap = w instanceof PdfDict ? w.get('AP') : undefined;
      if (!ap) continue;
      drawn ??= content();
      for (const [k] of reachable(resolve, [ap]))
        if (!parts.has(k) && !drawn.has(k)) parts.set(k, 'form_fill');
    }
  }
}

function firstPage(land: Landscape, k: string): number | null {
  const pages = land.pagesOf.get(k);
  return pages && pages.size > 0 ? Math.min(...pages) : null;
}

type Classified = { kind: ChangeKind; page: number | null; description: string };

/** Classifies one object that is new or different in the newer revision. */
function classify(land: Landscape, ref: PdfRef, before: PdfObject | null, after: PdfObject): Classified {
  const k = key(ref);
  const page = land.pageIndex.get(k) ?? firstPage(land, k);
  const what = `object ${ref.objectNumber}`;
  if (land.dss.has(k)) return { kind: 'dss', page: null, description: `validation data (DSS) ${what}` };
  if (land.catalogMetadata.has(k) && !land.pagesOf.has(k)) {
    return { kind: 'dss', page: null, description: `catalog extensions or metadata ${what}` };
  }
  const part = land.signatureParts.get(k);
  if (part && !before) {
    const where = part === 'form_fill' ? page : null;
    return {
      kind: part,
      page: where,
      description: `${part.replace('_', ' ')} ${what} added${onPage(where)}`,
    };
  }
  if (after instanceof PdfArray) {
    const annotsOf = land.annotsArrays.get(k);
    const older = before instanceof PdfArray ? before : undefined;
    if (annotsOf !== undefined) return annotsChange(land, older, after, annotsOf);
    if (land.fieldsArray === k) {
      const kind = addedSignatureKind(land, older, after);
      if (kind) return { kind, page: null, description: 'signature field added to the form' };
      return { kind: 'form', page: null, description: 'form fields added, removed or reordered' };
    }
  }
  if (!(after instanceof PdfDict)) {
    const verb = before ? 'changed' : 'added';
    if (page !== null)
      return { kind: 'page_content', page, description: `content ${what} ${verb}${onPage(page)}` };
    return { kind: 'object', page, description: `${what} ${verb}` };
  }
  const dictBefore = before instanceof PdfDict ? before : null;
  const type = typeOf(after);
  if (land.pageIndex.has(k)) return pageChange(land, dictBefore, after, page!);
  if (type === 'Catalog') return catalogChange(land, dictBefore, after);
  if (type === 'Pages')
    return { kind: 'pages', page: null, description: 'pages added, removed or reordered' };
  if (after.has('Fields') && !type) return acroFormChange(land, dictBefore, after);
  const widget = after.getName('Subtype')?.value === 'Widget';
  if ((after.has('FT') || widget) && dictBefore) return fieldChange(dictBefore, after, page);
  if (type === 'Annot' || (after.has('Subtype') && after.has('Rect'))) {
    return {
      kind: 'annotation',
      page,
      description: `annotation ${what} ${before ? 'changed' : 'added'}${onPage(page)}`,
    };
  }
  if (page !== null)
    return {
      kind: 'page_content',
      page,
      description: `content ${what} ${before ? 'changed' : 'added'}${onPage(page)}`,
    };
  return {
    kind: 'object',
    page: null,
    description: `${what}${type ? ` (${type})` : ''} ${before ? 'changed' : 'added'}`,
  };
}

/** An object the older revision held that the newer one still references but no longer has. */
function removal(land: Landscape, ref: PdfRef): Classified {
  const k = key(ref);
  const page = land.pageIndex.get(k) ?? firstPage(land, k);
  const what = `object ${ref.objectNumber}`;
  if (page !== null) {
    return {
      kind: 'page_content',
      page,
      description: `${what} used by page ${page} removed (freed or no longer readable)`,
    };
  }
  return { kind: 'object', page: null, description: `${what} removed (freed or no longer readable)` };
}

const onPage = (page: number | null) => (page ? ` on page ${page}` : '');

function pageChange(land: Landscape, before: PdfDict | null, after: PdfDict, page: number): Classified {
  const keys = changedKeys(before, after);
  if (keys.some((n) => n === 'Contents' || n === 'Resources')) {
    return { kind: 'page_content' as const, page, description: `content of page ${page} changed` };
  }
  if (keys.length === 1 && keys[0] === 'Annots') {
    const older = resolveArray(land.resolve, before?.get('Annots'));
    const newer = resolveArray(land.resolve, after.get('Annots'));
    return annotsChange(land, older, newer ?? new PdfArray(), page);
  }
  return { kind: 'page_content' as const, page, description: `page ${page} changed (${keys.join(', ')})` };
}

/** A page's annotation list: only new invisible signature fields appended are allowed. */
function annotsChange(
  land: Landscape,
  before: PdfArray | undefined,
  after: PdfArray,
  page: number,
): Classified {
  const kind = addedSignatureKind(land, before, after);
  if (kind) return { kind, page: null, description: `signature field added to page ${page}` };
  return { kind: 'annotation', page, description: `annotations added to or removed from page ${page}` };
}

/**
 * When `after` is `before` with only new invisible signature fields appended: whether any of them
 * is a signature (else they are all document timestamps). Null for any other difference.
 */
function addedSignatureKind(
  land: Landscape,
  before: PdfArray | undefined,
  after: PdfArray,
): ChangeKind | null {
  const had = before?.toArray() ?? [];
  const now = after.toArray();
  if (now.length <= had.length || !had.every((v, i) => sameObject(v, now[i]))) return null;
  const kinds = now
    .slice(had.length)
    .map((v) => (v instanceof PdfRef ? land.signatureParts.get(key(v)) : undefined));
  if (!kinds.every((kind) => kind === 'signature' || kind === 'document_timestamp')) return null;
  return kinds.includes('signature') ? 'signature' : 'document_timestamp';
}

function catalogChange(land: Landscape, before: PdfDict | null, after: PdfDict): Classified {
  let keys = changedKeys(before, after).filter((n) => n !== 'DSS' && !CATALOG_METADATA.has(n));
  let kind: ChangeKind = 'dss';
  if (keys.includes('AcroForm')) {
    const form = acroFormChange(
      land,
      resolveDict(land.resolve, before?.get('AcroForm')),
      resolveDict(land.resolve, after.get('AcroForm')) ?? new PdfDict(),
    );
    if (form.kind !== 'form') {
      kind = form.kind;
      keys = keys.filter((n) => n !== 'AcroForm');
    }
  }
  if (keys.length === 0) {
    const description = kind === 'dss' ? 'validation data (DSS) added' : 'signature field added to the form';
    return { kind, page: null, description };
  }
  return {
    kind: 'catalog' as const,
    page: null,
    description: `document catalog changed (${keys.join(', ')})`,
  };
}

/**
 * The form dictionary: new invisible signature fields may be appended to /Fields; /SigFlags may
 * change; /NeedAppearances, /DR, /DA and /Q only while every field is a signature field (they
 * could otherwise make readers redraw a field's value).
 */
function acroFormChange(land: Landscape, before: PdfDict | null, after: PdfDict): Classified {
  const free = new Set(['Fields', 'SigFlags']);
  if (land.onlySignatureFields || !before) for (const n of ['NeedAppearances', 'DR', 'DA', 'Q']) free.add(n);
  const keys = changedKeys(before, after);
  const other = keys.filter((n) => !free.has(n));
  let kind: ChangeKind | null = 'dss';
  if (keys.includes('Fields')) {
    kind = addedSignatureKind(
      land,
      resolveArray(land.resolve, before?.get('Fields')),
      resolveArray(land.resolve, after.get('Fields')) ?? new PdfArray(),
    );
  }
  if (other.length === 0 && kind) {
    return { kind, page: null, description: 'signature field added to the form' };
  }
  return {
    kind: 'form' as const,
    page: null,
    description: `form changed (${[...other, ...(kind ? [] : ['Fields'])].join(', ')})`,
  };
}

function fieldChange(before: PdfDict, after: PdfDict, page: number | null): Classified {
  const keys = changedKeys(before, after);
  const name = after.getString('T')?.asString() ?? 'unnamed';
  if (keys.every((n) => n === 'V' || n === 'AS' || n === 'AP')) {
    return { kind: 'form_fill' as const, page, description: `form field "${name}" filled${onPage(page)}` };
  }
  return { kind: 'form' as const, page, description: `form field "${name}" changed (${keys.join(', ')})` };
}

/**
 * The changes `newer` made to `older` (both loaded revisions of the same file). An object the
 * newer revision still references but no longer holds (freed by its xref, or unreadable) is a
 * change, and so is one it defines for the first time where a page reaches it, and a reference
 * whose generation is not the one the updates list for its number (`generations`, see
 * structure.ts): readers that check generations show nothing there, others show the object.
 */
export function diffRevisions(
  older: PDF,
  newer: PDF,
  revision: number,
  opts: { maxObjects?: number; generations?: Map<number, number> } = {},
): RevisionChange[] {
  const maxObjects = opts.maxObjects ?? MAX_OBJECTS;
  const resolveOld: Resolve = (ref) => safe(() => older.context.resolve(ref));
  const resolveNew: Resolve = (ref) => safe(() => newer.context.resolve(ref));
  const catalogRef = newer.context.getRef(newer.getCatalog());
  const roots: PdfObject[] = catalogRef ? [catalogRef] : [newer.getCatalog()];
  const land = landscape(newer, resolveNew, resolveOld);
  const changes: RevisionChange[] = [];
  const objects = reachable(resolveNew, roots, new Map(), maxObjects);
  if (objects.size >= maxObjects) {
    const description = `revision ${revision} has more than ${maxObjects} objects; it is not checked`;
    return [{ revision, kind: 'unreadable_revision', page: null, description }];
  }
  for (const ref of objects.values()) {
    const listed = opts.generations?.get(ref.objectNumber);
    if (listed !== undefined && listed !== ref.generation) {
      changes.push({ revision, ...generationMismatch(land, ref, listed) });
      continue;
    }
    const after = resolveNew(ref);
    const before = resolveOld(ref);
    if (!after && !before) continue;
    if (!after) changes.push({ revision, ...removal(land, ref) });
    else if (!sameObject(before, after)) changes.push({ revision, ...classify(land, ref, before, after) });
  }
  return changes;
}

/** A reference to generation g of an object number the updates list under generation `listed`. */
function generationMismatch(land: Landscape, ref: PdfRef, listed: number): Classified {
  const page = land.pageIndex.get(key(ref)) ?? firstPage(land, key(ref));
  const description = `object ${ref.objectNumber} is referenced as generation ${ref.generation} but listed as generation ${listed}${onPage(page)}, so readers disagree on what it is`;
  return { kind: page !== null ? 'page_content' : 'object', page, description };
}

function safe<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

/** Loads the file as it was at the end of one revision. */
export async function loadRevision(pdf: Uint8Array, end: number): Promise<PDF> {
  return PDF.load(pdf.subarray(0, end));
}
