import { decodeStream } from './decode.ts';
import { Dict, Name, Real, Ref, Str, Stream, type Value } from './lexer.ts';
import type { View } from './model.ts';

/** Values compared in one revision pair at most; a larger graph is reported, not half-checked. */
export const MAX_COMPARED = 500_000;

export class TooLarge extends Error {}

const numeric = (v: Value) => (typeof v === 'number' ? v : v instanceof Real ? v.value : null);

/**
 * Links back up a tree (a widget's field and page, a field's parent): what they lead to is
 * compared where it stands (the form from /Fields, pages from the page tree), not again from below.
 */
const BACK_LINKS: ReadonlySet<string> = new Set(['P', 'Parent']);

/**
 * Structural equality of what two revisions show, references followed: an object renumbered
 * with identical content is the same, an object freed, unreadable or re-used under another
 * generation (it resolves to nothing) is not. Cycles are assumed equal while they are compared.
 */
export class Comparer {
  private readonly memo = new Map<string, boolean>();
  private count = 0;

  readonly a: View;
  readonly b: View;
  private readonly max: number;
  constructor(a: View, b: View, max = MAX_COMPARED) {
    this.a = a;
    this.b = b;
    this.max = max;
  }

  same(x: Value | undefined, y: Value | undefined): boolean {
    if (++this.count > this.max) throw new TooLarge(`more than ${this.max} values to compare`);
    if (x instanceof Ref || y instanceof Ref) {
      const roleX = x instanceof Ref ? this.roles(this.a).get(x.key) : undefined;
      const roleY = y instanceof Ref ? this.roles(this.b).get(y.key) : undefined;
      if (roleX !== undefined || roleY !== undefined) return roleX === roleY;
      const key = `${x instanceof Ref ? x.key : '-'}|${y instanceof Ref ? y.key : '-'}`;
      const known = this.memo.get(key);
      if (known !== undefined) return known;
      this.memo.set(key, true);
      const result = this.same(this.a.get(x) ?? null, this.b.get(y) ?? null);
      this.memo.set(key, result);
      return result;
    }
    if (x === undefined || y === undefined) return x === y;
    // 595.0 and 595 are the same number wherever a number is read (a flag is read as such elsewhere).
    if (x instanceof Real || y instanceof Real || typeof x === 'number' || typeof y === 'number')
      return numeric(x) !== null && numeric(x) === numeric(y);
    if (x === null || typeof x !== 'object' || y === null || typeof y !== 'object') return x === y;
    if (x instanceof Name) return y instanceof Name && x.name === y.name;
    if (x instanceof Str) return y instanceof Str && Buffer.from(x.bytes).equals(Buffer.from(y.bytes));
    if (Array.isArray(x))
      return Array.isArray(y) && x.length === y.length && x.every((v, i) => this.same(v, y[i]));
    if (x instanceof Stream) return y instanceof Stream && this.sameStream(x, y);
    if (x instanceof Dict) return y instanceof Dict && this.sameDict(x, y);
    return false;
  }

  /** Keys whose values differ between two dictionaries (either side may lack the key). */
  changedKeys(x: Dict | null, y: Dict | null, skip?: ReadonlySet<string>): string[] {
    const keys = new Set([...(x?.keys() ?? []), ...(y?.keys() ?? [])]);
    return [...keys].filter((k) => !skip?.has(k) && !BACK_LINKS.has(k) && !this.same(x?.get(k), y?.get(k)));
  }

  private sameDict(x: Dict, y: Dict, skip?: ReadonlySet<string>): boolean {
    return this.changedKeys(x, y, skip).length === 0;
  }

  private readonly roleMaps = new Map<View, Map<string, string>>();

  /**
   * Objects compared where they stand, by role, and elsewhere only by identity: a reference to a
   * page is the same when it names the page at the same place (what pages show is compared page
   * by page), to the catalog when it names the catalog (a FieldMDP reference's /Data), to a form
   * field when it names the field of the same name (fields are compared by name).
   */
  private roles(view: View): Map<string, string> {
    let roles = this.roleMaps.get(view);
    if (!roles) {
      roles = new Map();
      const root = view.rev.trailer.get('Root');
      if (root instanceof Ref) roles.set(root.key, 'catalog');
      for (const f of view.fields() ?? []) if (f.ref) roles.set(f.ref.key, `field:${f.name}`);
      for (const [i, p] of (view.pages() ?? []).entries()) if (p.ref) roles.set(p.ref.key, `page:${i}`);
      this.roleMaps.set(view, roles);
    }
    return roles;
  }

  private sameStream(x: Stream, y: Stream): boolean {
    const coding = new Set(['Length', 'Filter', 'DecodeParms', ...BACK_LINKS]);
    if (!this.sameDict(x.dict, y.dict, coding)) return false;
    const rawSame =
      this.same(x.dict.get('Filter'), y.dict.get('Filter')) &&
      this.same(x.dict.get('DecodeParms'), y.dict.get('DecodeParms'));
    if (rawSame) return Buffer.from(x.raw).equals(Buffer.from(y.raw));
    const dx = decodeStream(x);
    const dy = decodeStream(y);
    return !!dx && !!dy && Buffer.from(dx).equals(Buffer.from(dy));
  }
}
