import { isName, type PdfFile, type Revision } from './file.ts';
import { Dict, Name, Real, Ref, Str, Stream, type Value } from './lexer.ts';

// What a revision shows, read through the object model (issue 40, item 2): every value resolved
// before it is judged (an indirect /Rect or /F is a number like any other), page attributes
// inherited through every /Parent, the form read from its field tree, signatures found from their
// fields and never from a byte scan.

/** Pages, fields and widgets past these bounds make a revision unreadable, not slow. */
const MAX_PAGES = 10_000;
const MAX_FIELDS = 10_000;
const MAX_TREE_DEPTH = 64;

export const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'] as const;

export interface PageView {
  ref: Ref | null;
  dict: Dict;
  /** Inherited attributes as the tree walk passes them down (poppler). */
  fromTree: Map<string, Value | undefined>;
  /** The same attributes found by following /Parent links upwards (pdf.js, MuPDF). */
  fromParents: Map<string, Value | undefined>;
  annots: { ref: Ref | null; dict: Dict }[];
}

export interface FieldView {
  /** Fully qualified name (the /T of each ancestor, joined by dots). */
  name: string;
  ref: Ref | null;
  dict: Dict;
  /** /FT, inherited. */
  type: string | null;
  /** The field's widgets: its kids without /T, or itself when it is merged with its widget. */
  widgets: { ref: Ref | null; dict: Dict }[];
}

export class View {
  readonly file: PdfFile;
  readonly rev: Revision;
  constructor(file: PdfFile, rev: Revision) {
    this.file = file;
    this.rev = rev;
  }

  get(value: Value | undefined): Value | undefined {
    return this.file.resolve(this.rev, value);
  }

  dict(value: Value | undefined): Dict | null {
    const v = this.get(value);
    return v instanceof Dict ? v : v instanceof Stream ? v.dict : null;
  }

  array(value: Value | undefined): Value[] | null {
    const v = this.get(value);
    return Array.isArray(v) ? v : null;
  }

  /** A number, resolved; null when it is not one. */
  number(value: Value | undefined): number | null {
    const v = this.get(value);
    return typeof v === 'number' ? v : v instanceof Real ? v.value : null;
  }

  /** A rectangle of four numbers, each resolved; null when it is not one. */
  rect(value: Value | undefined): [number, number, number, number] | null {
    const a = this.array(value);
    if (!a || a.length !== 4) return null;
    const n = a.map((x) => this.number(x));
    return n.every((x): x is number => x !== null) ? (n as [number, number, number, number]) : null;
  }

  catalog(): Dict | null {
    return this.dict(this.rev.trailer.get('Root'));
  }

  private pagesCache: PageView[] | null | undefined;

  /** The leaves of the page tree in order; null when the tree cannot be walked. */
  pages(): PageView[] | null {
    if (this.pagesCache !== undefined) return this.pagesCache;
    const pages: PageView[] = [];
    const seen = new Set<string>();
    const walk = (
      node: Value | undefined,
      inherited: Map<string, Value | undefined>,
      depth: number,
    ): boolean => {
      if (depth > MAX_TREE_DEPTH || pages.length > MAX_PAGES) return false;
      if (node instanceof Ref) {
        if (seen.has(node.key)) return false;
        seen.add(node.key);
      }
      const dict = this.dict(node);
      if (!dict) return false;
      const here = new Map(inherited);
      for (const k of INHERITED) if (dict.has(k)) here.set(k, dict.get(k));
      if (isName(dict.get('Type'), 'Pages') || (!dict.has('Type') && dict.has('Kids'))) {
        const kids = this.array(dict.get('Kids'));
        if (!kids) return false;
        return kids.every((kid) => walk(kid, here, depth + 1));
      }
      pages.push({
        ref: node instanceof Ref ? node : null,
        dict,
        fromTree: here,
        fromParents: this.inheritedByParents(dict),
        annots: (this.array(dict.get('Annots')) ?? []).flatMap((a) => {
          const d = this.dict(a);
          return d ? [{ ref: a instanceof Ref ? a : null, dict: d }] : [];
        }),
      });
      return true;
    };
    const root = this.catalog()?.get('Pages');
    this.pagesCache = walk(root, new Map(), 0) ? pages : null;
    return this.pagesCache;
  }

  private inheritedByParents(page: Dict): Map<string, Value | undefined> {
    const found = new Map<string, Value | undefined>();
    let node: Dict | null = page;
    for (let i = 0; node && i < MAX_TREE_DEPTH; i++) {
      for (const k of INHERITED) if (!found.has(k) && node.has(k)) found.set(k, node.get(k));
      node = this.dict(node.get('Parent'));
    }
    return found;
  }

  private fieldsCache: FieldView[] | null | undefined;

  /** Every terminal field of the form, by walking /Fields and /Kids; null when it cannot be walked. */
  fields(): FieldView[] | null {
    if (this.fieldsCache !== undefined) return this.fieldsCache;
    const out: FieldView[] = [];
    const seen = new Set<string>();
    const form = this.dict(this.catalog()?.get('AcroForm'));
    const walk = (node: Value, prefix: string, type: string | null, depth: number): boolean => {
      if (depth > MAX_TREE_DEPTH || out.length > MAX_FIELDS) return false;
      if (node instanceof Ref) {
        if (seen.has(node.key)) return false;
        seen.add(node.key);
      }
      const dict = this.dict(node);
      if (!dict) return true;
      const t = this.get(dict.get('T'));
      const name = t instanceof Str ? (prefix ? `${prefix}.${t.text()}` : t.text()) : prefix;
      const ft = this.get(dict.get('FT'));
      const fieldType = ft instanceof Name ? ft.name : type;
      const kids = this.array(dict.get('Kids')) ?? [];
      const fieldKids = kids.filter((k) => this.dict(k)?.has('T'));
      if (fieldKids.length > 0) return kids.every((k) => walk(k, name, fieldType, depth + 1));
      const widgets = kids.length > 0 ? kids : [node];
      out.push({
        name,
        ref: node instanceof Ref ? node : null,
        dict,
        type: fieldType,
        widgets: widgets.flatMap((w) => {
          const d = this.dict(w);
          return d ? [{ ref: w instanceof Ref ? w : null, dict: d }] : [];
        }),
      });
      return true;
    };
    const fields = this.array(form?.get('Fields')) ?? [];
    this.fieldsCache = fields.every((f) => walk(f, '', null, 0)) ? out : null;
    return this.fieldsCache;
  }

  /** Annotation flags, when given as an integer (a real /F, 2.0 say, is no flag readers agree on). */
  flags(annot: Dict): number {
    const f = this.get(annot.get('F'));
    return typeof f === 'number' && Number.isInteger(f) ? f : 0;
  }

  /** Whether a widget belongs to a signature field: its /FT, or one inherited through /Parent, is /Sig. */
  isSignatureWidget(widget: Dict): boolean {
    let node: Dict | null = widget;
    for (let i = 0; node && i < MAX_TREE_DEPTH; i++) {
      const ft = this.get(node.get('FT'));
      if (ft instanceof Name) return ft.name === 'Sig';
      node = this.dict(node.get('Parent'));
    }
    return false;
  }

  /** A widget no reader draws: the Hidden or NoView flag, or a zero-area rectangle. */
  invisible(annot: Dict): boolean {
    if ((this.flags(annot) & HIDING_FLAGS) !== 0) return true;
    const r = this.rect(annot.get('Rect'));
    return r !== null && (r[2] - r[0] === 0 || r[3] - r[1] === 0);
  }
}

/** Annotation flags (ISO 32000-1, 12.5.3) that hide a widget from every reader: Hidden (2), NoView (32). */
const HIDING_FLAGS = 2 | 32;
/** The flags that decide whether an annotation is shown: Invisible (1), Hidden, NoView, ToggleNoView (256). */
export const VISIBILITY_FLAGS = 1 | HIDING_FLAGS | 256;

export const refKey = (v: Value | undefined) => (v instanceof Ref ? v.key : null);
