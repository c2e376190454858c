import { type PDF, PdfArray, PdfDict, PdfNull, type PdfObject, PdfRef } from '@libpdf/core';

// Issue 30, item 3: a page that names an object the file does not define (`900 0 R` in its
// /Contents with no object 900) reads as if the reference were null (ISO 32000-2 §7.3.10), so the
// template shows nothing there; but a later incremental update may define that object, and
// every reader then draws it. Such references are removed from what the pages reach before the
// template is stored, so the sealed file never holds a slot an update could fill.

/** Arrays whose entries are a list (an entry can go): a page's contents and annotations, a tree's kids. */
const LISTS = new Set(['Contents', 'Annots', 'Kids']);

/**
 * Removes every reference to an undefined object from what the pages reach (not following
 * /Parent): a list entry is dropped, a dictionary entry removed, any other array entry becomes
 * null. Returns how many were removed; `warn` says so once.
 */
export function dropDanglingReferences(
  pdf: PDF,
  pages: { dict: PdfDict }[],
  warn: (message: string) => void,
): number {
  const lookedUp = new Map<string, PdfObject | null>();
  const lookup = (ref: PdfRef): PdfObject | null => {
    const k = `${ref.objectNumber} ${ref.generation}`;
    if (!lookedUp.has(k)) {
      let obj: PdfObject | null = null;
      try {
        obj = pdf.getObject(ref) ?? null;
      } catch {
        obj = null;
      }
      lookedUp.set(k, obj);
    }
    return lookedUp.get(k)!;
  };
  const seen = new Set<PdfObject>();
  const stack: { obj: PdfObject; key: string | null }[] = pages.map((p) => ({ obj: p.dict, key: null }));
  let dropped = 0;
  while (stack.length > 0) {
    const { obj, key } = stack.pop()!;
    if (seen.has(obj)) continue;
    seen.add(obj);
    if (obj instanceof PdfDict) {
      for (const name of [...obj.keys()]) {
        if (name.value === 'Parent') continue;
        const value = obj.get(name)!;
        const target = value instanceof PdfRef ? lookup(value) : value;
        if (target === null) {
          obj.delete(name);
          dropped++;
        } else stack.push({ obj: target, key: name.value });
      }
    } else if (obj instanceof PdfArray) {
      for (let i = obj.length - 1; i >= 0; i--) {
        const value = obj.at(i)!;
        const target = value instanceof PdfRef ? lookup(value) : value;
        if (target === null) {
          if (key && LISTS.has(key)) obj.remove(i);
          else obj.set(i, PdfNull.instance);
          dropped++;
        } else stack.push({ obj: target, key });
      }
    }
  }
  if (dropped > 0)
    warn(
      `The PDF referred to ${dropped} object${dropped > 1 ? 's' : ''} it does not contain; ${dropped > 1 ? 'those references were' : 'that reference was'} removed`,
    );
  return dropped;
}
