import {
  PDF,
  PdfArray,
  PdfBool,
  PdfDict,
  PdfName,
  PdfNull,
  PdfNumber,
  type PdfObject,
  PdfRef,
  PdfStream,
  PdfString,
} from '@libpdf/core';
import type { PdfFile, Revision } from './file.ts';
import { Dict, Name, Real, Ref, Str, Stream, type Value } from './lexer.ts';

// Issue 40, item 1: every other parser the product uses must read an update's objects as the
// strict reader does. @libpdf/core (the sealing and form library) loads the revision; it must not
// have fallen back to rebuilding the file, and each object the update lists must be the same value
// in both readings. Where they differ, readers differ: the revision is unreadable.

export async function libpdfDisagrees(file: PdfFile, rev: Revision): Promise<string | null> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(file.bytes.subarray(0, rev.end));
  } catch {
    // A file @libpdf/core cannot load at all is one it shows nothing of (it only seals files of
    // ours): there is no second reading to disagree, and pdf.js, which shows every file, is held
    // to the strict reading by the rendering guard.
    return null;
  }
  // When it had to rebuild the cross-reference (it does for an offset at the white space before
  // `xref`, which every reader accepts), the objects it found must still be the ones listed.
  const listed = new Set<number>();
  for (const s of rev.sections) {
    for (const [num, e] of s.entries) if (e.type !== 0) listed.add(num);
    for (const [num, e] of s.hidden ?? []) if (e.type !== 0) listed.add(num);
  }
  for (const num of listed) {
    const entry = rev.table.get(num);
    const gen = entry?.type === 1 ? entry.gen : 0;
    const mine = file.lookup(rev, num, gen);
    let theirs: PdfObject | null = null;
    try {
      theirs = pdf.context.resolve(PdfRef.of(num, gen));
    } catch {
      theirs = null;
    }
    if (!mine && !theirs) continue;
    if (!mine || !theirs || !agree(mine.value, theirs))
      return `@libpdf/core reads object ${num} ${gen} differently`;
  }
  return null;
}

function agree(mine: Value, theirs: PdfObject | null, depth = 0): boolean {
  if (depth > 64) return false;
  if (mine === null) return theirs === null || theirs instanceof PdfNull;
  if (typeof mine === 'boolean') return theirs instanceof PdfBool && theirs.value === mine;
  if (typeof mine === 'number') return theirs instanceof PdfNumber && Math.abs(theirs.value - mine) < 1e-9;
  if (mine instanceof Real) return theirs instanceof PdfNumber && Math.abs(theirs.value - mine.value) < 1e-9;
  if (mine instanceof Name) return theirs instanceof PdfName && theirs.value === mine.name;
  if (mine instanceof Str)
    return theirs instanceof PdfString && Buffer.from(theirs.bytes).equals(Buffer.from(mine.bytes));
  if (mine instanceof Ref)
    return theirs instanceof PdfRef && theirs.objectNumber === mine.num && theirs.generation === mine.gen;
  if (Array.isArray(mine))
    return (
      theirs instanceof PdfArray &&
      theirs.length === mine.length &&
      mine.every((v, i) => agree(v, theirs.at(i) ?? null, depth + 1))
    );
  const dict = mine instanceof Stream ? mine.dict : mine;
  if (!(dict instanceof Dict) || !(theirs instanceof PdfDict)) return false;
  if (mine instanceof Stream !== theirs instanceof PdfStream) return false;
  if (theirs.size !== dict.map.size) return false;
  for (const [k, v] of dict.map) if (!agree(v, theirs.get(k) ?? null, depth + 1)) return false;
  if (mine instanceof Stream) return Buffer.from((theirs as PdfStream).data).equals(Buffer.from(mine.raw));
  return true;
}
