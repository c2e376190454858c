import { Comparer, TooLarge } from './equal.ts';
import { isName } from './file.ts';
import { Dict, Name, Ref, type Value } from './lexer.ts';
import { type FieldView, INHERITED, type PageView, refKey, VISIBILITY_FLAGS, type View } from './model.ts';

// Issue 40, item 3: what one revision changed, judged by role as pyHanko's difference analysis
// and the EU reference validator do. Two revisions are compared through their object models
// (catalog entries, each page with what it inherits, each annotation, each form field), never
// object number by object number: an object renumbered with identical content is no change, one
// freed or re-used under another generation is. Each change gets a modification level; what a
// signature permits decides whether it breaks it (see judge.ts).

export type ModificationLevel = 'none' | 'validation_data' | 'form_filling' | 'annotations' | 'other';
const LEVEL_ORDER: ModificationLevel[] = ['none', 'validation_data', 'form_filling', 'annotations', 'other'];
export const levelRank = (l: ModificationLevel) => LEVEL_ORDER.indexOf(l);

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
  /** 1-based revision of the file that made the change. */
  revision: number;
  kind: ChangeKind;
  /** 1-based page the change shows on, when it belongs to a page. */
  page: number | null;
  description: string;
}

export interface Change extends RevisionChange {
  level: ModificationLevel;
  /** The form field filled or signed, for FieldMDP locks. */
  field?: string;
  /** Where on its page the change may draw (a filled field's or a new signature's widget). */
  areas?: { page: number; rect: [number, number, number, number] }[];
}

/** Catalog entries only long-term validation touches; no page shows them. */
const VALIDATION_ENTRIES = new Set(['DSS', 'Extensions', 'Version', 'Metadata', 'MarkInfo']);
/** Form entries that make readers redraw fields from their values. */
const REDRAW_ENTRIES = new Set(['NeedAppearances', 'DA', 'Q']);
/** What filling a field changes: its value (/V, a choice field's selected /I), its state and appearance, and the default appearance some fillers rewrite (/DA). */
const VALUE_KEYS = new Set(['V', 'I', 'AS', 'AP', 'DA']);

export function diffRevision(a: View, b: View, revision: number, maxCompared?: number): Change[] {
  try {
    return new Diff(a, b, revision, maxCompared).run();
  } catch (err) {
    if (!(err instanceof TooLarge)) throw err;
    return [unreadable(revision, `revision ${revision} is too large to compare (${err.message})`)];
  }
}

/** Annotation flags that changed only in bits that neither hide nor show it (model.ts VISIBILITY_FLAGS). */
const quietFlags = (x: number, y: number) => ((x ^ y) & VISIBILITY_FLAGS) === 0;

export function unreadable(revision: number, description: string): Change {
  return { revision, kind: 'unreadable_revision', level: 'other', page: null, description };
}

class Diff {
  private readonly cmp: Comparer;
  private readonly out: Change[] = [];
  /** Widgets (by reference) whose change the form analysis explained, with the level it gave. */
  private readonly explained = new Set<string>();

  private readonly a: View;
  private readonly b: View;
  private readonly revision: number;
  constructor(a: View, b: View, revision: number, maxCompared?: number) {
    this.a = a;
    this.b = b;
    this.revision = revision;
    this.cmp = new Comparer(a, b, maxCompared);
  }

  private add(change: Omit<Change, 'revision'>): void {
    this.out.push({ revision: this.revision, ...change });
  }

  run(): Change[] {
    const ca = this.a.catalog();
    const cb = this.b.catalog();
    if (!ca || !cb)
      return [unreadable(this.revision, `revision ${this.revision} has no readable document catalog`)];
    this.catalog(ca, cb);
    this.form(ca, cb);
    this.pages(ca, cb);
    return this.out;
  }

  private catalog(ca: Dict, cb: Dict): void {
    const changed = this.cmp.changedKeys(ca, cb, new Set(['Pages', 'AcroForm', 'Type']));
    const validation = changed.filter((k) => VALIDATION_ENTRIES.has(k));
    let other = changed.filter((k) => !VALIDATION_ENTRIES.has(k));
    // The /AP name tree holds named appearances of annotations (stamps): an annotation's part.
    const names = this.cmp.changedKeys(this.a.dict(ca.get('Names')), this.b.dict(cb.get('Names')));
    if (other.includes('Names') && names.length === 1 && names[0] === 'AP') {
      other = other.filter((k) => k !== 'Names');
      this.add({
        kind: 'annotation',
        level: 'annotations',
        page: null,
        description: 'named annotation appearances changed (/Names /AP)',
      });
    }
    if (validation.length > 0)
      this.add({
        kind: 'dss',
        level: 'validation_data',
        page: null,
        description: `validation data or metadata changed (${validation.join(', ')})`,
      });
    // The structure tree (tagging) gains entries when a tool signs or fills a tagged document.
    if (other.includes('StructTreeRoot')) {
      other = other.filter((k) => k !== 'StructTreeRoot');
      this.add({
        kind: 'catalog',
        level: 'form_filling',
        page: null,
        description: 'structure tree (tagging) changed',
      });
    }
    if (other.length > 0)
      this.add({
        kind: 'catalog',
        level: 'other',
        page: null,
        description: `document catalog changed (${other.join(', ')})`,
      });
  }

  private form(ca: Dict, cb: Dict): void {
    const fa = this.a.dict(ca.get('AcroForm'));
    const fb = this.b.dict(cb.get('AcroForm'));
    const fieldsA = this.a.fields();
    const fieldsB = this.b.fields();
    if (!fieldsB || (fb && !fieldsA)) {
      this.add({ kind: 'form', level: 'other', page: null, description: 'the form fields cannot be walked' });
      return;
    }
    // Readers redraw every widget on the pages, in the form or not (a widget outside /Fields too).
    const onlySignatures =
      fieldsB.every((f) => f.type === 'Sig') &&
      (this.b.pages() ?? []).every((p) =>
        p.annots.every(
          (a) => !isName(this.b.get(a.dict.get('Subtype')), 'Widget') || this.b.isSignatureWidget(a.dict),
        ),
      );
    for (const key of this.cmp.changedKeys(fa, fb, new Set(['Fields', 'SigFlags']))) {
      if (key === 'DR' && this.onlyAdds(this.a.get(fa?.get('DR')), this.b.get(fb?.get('DR'))))
        this.add({
          kind: 'form_fill',
          level: 'form_filling',
          page: null,
          description: 'resources added to the form (/DR)',
        });
      else if ((REDRAW_ENTRIES.has(key) || key === 'DR') && onlySignatures)
        this.add({
          kind: 'form_fill',
          level: 'validation_data',
          page: null,
          description: `form /${key} changed (signature fields only)`,
        });
      else this.add({ kind: 'form', level: 'other', page: null, description: `form changed (${key})` });
    }
    const before = new Map((fieldsA ?? []).map((f) => [f.name, f]));
    const seen = new Set<string>();
    for (const field of fieldsB) {
      seen.add(field.name);
      const old = before.get(field.name);
      if (!old) this.newField(field);
      else this.changedField(old, field);
    }
    for (const [name] of before)
      if (!seen.has(name))
        this.add({ kind: 'form', level: 'other', page: null, description: `form field "${name}" removed` });
  }

  /** `y` holds everything `x` holds, unchanged, and more (fonts PDFBox adds to /DR, say). */
  private onlyAdds(x: Value | undefined, y: Value | undefined): boolean {
    if (!(x instanceof Dict) || !(y instanceof Dict)) return x === undefined && y instanceof Dict;
    return x.keys().every((k) => {
      if (this.cmp.same(x.get(k), y.get(k))) return true;
      return this.onlyAdds(this.a.get(x.get(k)), this.b.get(y.get(k)));
    });
  }

  private signatureChange(field: FieldView, verb: string): void {
    const sig = this.b.dict(field.dict.get('V'));
    const timestamp =
      isName(sig?.get('Type'), 'DocTimeStamp') || isName(sig?.get('SubFilter'), 'ETSI.RFC3161');
    const areas = this.areas(field);
    for (const w of field.widgets) if (w.ref) this.explained.add(w.ref.key);
    if (field.ref) this.explained.add(field.ref.key);
    const what = timestamp ? 'document timestamp' : 'signature';
    this.add({
      kind: timestamp ? 'document_timestamp' : 'signature',
      level: timestamp && areas.length === 0 ? 'validation_data' : 'form_filling',
      page: areas[0]?.page ?? null,
      field: field.name,
      areas,
      description: `${what} field "${field.name}" ${verb}${areas.length > 0 ? ` with a visible appearance ${areas[0]!.page ? `on page ${areas[0]!.page}` : 'on no page'}` : ''}`,
    });
  }

  private newField(field: FieldView): void {
    if (field.type === 'Sig') this.signatureChange(field, 'added');
    else
      this.add({ kind: 'form', level: 'other', page: null, description: `form field "${field.name}" added` });
  }

  /** Keys changed besides the value, its appearance, and flags that neither hide nor show (Locked, Print). */
  private otherKeys(x: Dict, y: Dict, skip: ReadonlySet<string>): string[] {
    const keys = this.cmp.changedKeys(x, y, skip).filter((k) => k !== 'F');
    // Flags as readers read them: /F 2 and /F 2.0 are the same number but not the same flag.
    return quietFlags(this.a.flags(x), this.b.flags(y)) ? keys : [...keys, 'F'];
  }

  private changedField(old: FieldView, field: FieldView): void {
    const skip = new Set(['Kids', ...VALUE_KEYS]);
    const keys = this.otherKeys(old.dict, field.dict, skip);
    if (old.widgets.length !== field.widgets.length) keys.push('Kids');
    field.widgets.forEach((w, i) => {
      const was = old.widgets[i];
      if (was && w.dict !== field.dict) keys.push(...this.otherKeys(was.dict, w.dict, VALUE_KEYS));
    });
    if (keys.length > 0) {
      this.add({
        kind: 'form',
        level: 'other',
        page: null,
        description: `form field "${field.name}" changed (${[...new Set(keys)].join(', ')})`,
      });
      return;
    }
    const valueChanged =
      this.cmp.changedKeys(old.dict, field.dict, new Set(['Kids'])).length > 0 ||
      field.widgets.some((w, i) => !this.cmp.same(old.widgets[i]!.dict, w.dict));
    if (!valueChanged) return;
    if (field.type === 'Sig') {
      if (old.dict.get('V') === undefined) {
        this.signatureChange(field, 'signed');
        return;
      }
      this.add({
        kind: 'form',
        level: 'other',
        page: null,
        description: `signature field "${field.name}" changed after it was signed`,
      });
      return;
    }
    const newValue = [field.dict, ...field.widgets.map((w) => w.dict)].some(
      (d, i) =>
        !this.cmp.same(
          i === 0 ? old.dict.get('V') : old.widgets[i - 1]?.dict.get('AS'),
          i === 0 ? d.get('V') : d.get('AS'),
        ),
    );
    if (!newValue) {
      // A new appearance over the same value shows something the field does not hold.
      this.add({
        kind: 'form',
        level: 'other',
        page: null,
        description: `form field "${field.name}" shows a new appearance without a new value`,
      });
      return;
    }
    const areas = this.areas(field);
    for (const w of field.widgets) if (w.ref) this.explained.add(w.ref.key);
    if (field.ref) this.explained.add(field.ref.key);
    this.add({
      kind: 'form_fill',
      level: 'form_filling',
      page: areas[0]?.page ?? null,
      field: field.name,
      areas,
      description: `form field "${field.name}" filled${areas[0] ? ` on page ${areas[0].page}` : ''}`,
    });
  }

  /** The visible widgets of a field in the newer revision, with their pages. */
  private areas(field: FieldView): NonNullable<Change['areas']> {
    const pages = this.b.pages() ?? [];
    const out: NonNullable<Change['areas']> = [];
    for (const w of field.widgets) {
      if (this.b.invisible(w.dict)) continue;
      const rect = this.b.rect(w.dict.get('Rect'));
      const page = pages.findIndex((p) =>
        p.annots.some((x) => x.dict === w.dict || (w.ref && refKey(x.ref) === w.ref.key)),
      );
      if (rect && page >= 0) out.push({ page: page + 1, rect });
      else if (!rect || page < 0) out.push({ page: 0, rect: rect ?? [0, 0, 0, 0] });
    }
    return out;
  }

  private pages(ca: Dict, cb: Dict): void {
    const pa = this.a.pages();
    const pb = this.b.pages();
    if (!pa || !pb) {
      this.add({ kind: 'pages', level: 'other', page: null, description: 'the page tree cannot be walked' });
      return;
    }
    const ra = this.a.dict(ca.get('Pages'));
    const rb = this.b.dict(cb.get('Pages'));
    if (pa.length !== pb.length || !this.cmp.same(ra?.get('Count'), rb?.get('Count')))
      this.add({
        kind: 'pages',
        level: 'other',
        page: null,
        description: 'pages added, removed or reordered',
      });
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) this.page(pa[i]!, pb[i]!, i + 1);
  }

  private page(x: PageView, y: PageView, n: number): void {
    const keys = this.cmp.changedKeys(x.dict, y.dict, new Set(['Annots', 'Parent', ...INHERITED]));
    for (const k of INHERITED)
      if (
        !this.cmp.same(x.fromTree.get(k), y.fromTree.get(k)) ||
        !this.cmp.same(x.fromParents.get(k), y.fromParents.get(k))
      )
        keys.push(k);
    if (keys.length > 0) {
      const content = keys.includes('Contents') || keys.includes('Resources');
      const cause = this.cause(
        keys.includes('Contents') ? x.dict.get('Contents') : x.fromTree.get('Resources'),
        keys.includes('Contents') ? y.dict.get('Contents') : y.fromTree.get('Resources'),
        n,
      );
      this.add({
        kind: 'page_content',
        level: 'other',
        page: n,
        description: content
          ? (cause ?? `content of page ${n} changed`)
          : `page ${n} changed (${keys.join(', ')})`,
      });
    }
    this.annotations(x, y, n);
  }

  private annotations(x: PageView, y: PageView, n: number): void {
    const old = [...x.annots];
    const take = (a: PageView['annots'][number]) => {
      let i = old.findIndex((o) => o.ref && a.ref && o.ref.key === a.ref.key);
      if (i < 0) i = old.findIndex((o) => this.cmp.same(o.ref ?? o.dict, a.ref ?? a.dict));
      return i < 0 ? null : old.splice(i, 1)[0]!;
    };
    for (const annot of y.annots) {
      const was = take(annot);
      const widget = isName(this.b.get(annot.dict.get('Subtype')), 'Widget');
      const subtype = this.b.get(annot.dict.get('Subtype'));
      const what = `${subtype instanceof Name ? subtype.name : 'unknown'} annotation${annot.ref ? ` (object ${annot.ref.num})` : ''}`;
      const explained = !!annot.ref && this.explained.has(annot.ref.key);
      if (!was) {
        if (widget && explained) continue;
        this.add(
          widget
            ? {
                kind: 'annotation',
                level: 'other',
                page: n,
                description: `${what} added on page ${n} outside the form`,
              }
            : {
                kind: 'annotation',
                level: 'annotations',
                page: n,
                areas: this.annotationArea(annot.dict, n),
                description: `${what} added on page ${n}`,
              },
        );
        continue;
      }
      if (this.cmp.same(was.dict, annot.dict) && this.a.flags(was.dict) === this.b.flags(annot.dict))
        continue;
      if (widget && explained && this.otherKeys(was.dict, annot.dict, VALUE_KEYS).length === 0) continue;
      this.add({
        kind: 'annotation',
        level: widget ? 'other' : 'annotations',
        page: n,
        areas: [...this.annotationArea(was.dict, n, this.a), ...this.annotationArea(annot.dict, n)],
        description: `${what} changed on page ${n}`,
      });
    }
    for (const gone of old) {
      const widget = isName(this.a.get(gone.dict.get('Subtype')), 'Widget');
      this.add({
        kind: 'annotation',
        level: widget ? 'other' : 'annotations',
        page: n,
        areas: this.annotationArea(gone.dict, n, this.a),
        description: `annotation${gone.ref ? ` object ${gone.ref.num}` : ''} removed from page ${n}`,
      });
    }
  }

  /**
   * Where an annotation draws: its /Rect, and its pop-up's. pdf.js clips an appearance to its
   * /Rect, so a permitted annotation's change shows only there (the rendering guard checks it).
   */
  private annotationArea(annot: Dict, page: number, view: View = this.b): NonNullable<Change['areas']> {
    const rects = [view.rect(annot.get('Rect')), view.rect(view.dict(annot.get('Popup'))?.get('Rect'))];
    return rects.flatMap((rect) => (rect ? [{ page, rect }] : []));
  }

  /** The first object under two values that differs, described (freed, added, another generation). */
  private cause(x: Value | undefined, y: Value | undefined, page: number, depth = 0): string | null {
    if (depth > 24) return null;
    if (x instanceof Ref && y instanceof Ref && x.key === y.key) {
      const entry = this.b.rev.table.get(y.num);
      const vx = this.a.get(x);
      const vy = this.b.get(y);
      if (entry && entry.type === 1 && entry.gen !== y.gen)
        return `object ${y.num} is referenced as generation ${y.gen} but listed as generation ${entry.gen} on page ${page}, so readers disagree on what it is`;
      if ((vx === null || vx === undefined) && vy !== null && vy !== undefined)
        return `content object ${y.num} added on page ${page}`;
      if (vx !== null && vx !== undefined && (vy === null || vy === undefined))
        return `object ${y.num} used by page ${page} removed (freed or no longer readable)`;
      return (
        this.cause(vx, vy, page, depth + 1) ??
        (this.cmp.same(vx, vy) ? null : `content object ${y.num} changed on page ${page}`)
      );
    }
    const dx = x instanceof Dict ? x : null;
    const dy = y instanceof Dict ? y : null;
    if (dx && dy) {
      for (const k of this.cmp.changedKeys(dx, dy)) {
        const found = this.cause(dx.get(k), dy.get(k), page, depth + 1);
        if (found) return found;
      }
    }
    if (Array.isArray(x) && Array.isArray(y) && x.length === y.length)
      for (let i = 0; i < x.length; i++) {
        if (this.cmp.same(x[i], y[i])) continue;
        const found = this.cause(x[i], y[i], page, depth + 1);
        if (found) return found;
      }
    return null;
  }
}
