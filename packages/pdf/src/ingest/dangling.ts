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
  const missing = (ref: PdfRef) => {
    try {
      return pdf.getObject(ref) == null;
    } catch {
      return true;
    }
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
        if (value instanceof PdfRef && missing(value)) {
          obj.delete(name);
          dropped++;
        } else stack.push({ obj: resolved(pdf, value), key: name.value });
      }
    } else if (obj instanceof PdfArray) {
      for (let i = obj.length - 1; i >= 0; i--) {
        const value = obj.at(i)!;
        if (value instanceof PdfRef && missing(value)) {
          if (key && LISTS.has(key)) obj.remove(i);
          else obj.set(i, PdfNull.instance);
          dropped++;
        } else stack.push({ obj: resolved(pdf, value), key });
      }
    }
  }
  if (dropped > 0)
    warn(
      `The PDF referred to ${dropped} object${dropped > 1 ? 's' : ''} it does not contain; ${dropped > 1 ? 'those references were' : 'that reference was'} removed`,
    );
  return dropped;
}

function resolved(pdf: PDF, value: PdfObject): PdfObject {
  return value instanceof PdfRef ? (pdf.getObject(value) ?? PdfNull.instance) : value;
}
