import { type IndirectObject, isName, type PdfFile, type Revision } from './file.ts';
import { Lexer, ReadError, Ref, Stream } from './lexer.ts';

// Issue 40, item 1: an update after a signature is read byte by byte, and every reader must come
// to the same objects. Its bytes must be nothing but indirect objects (white space and comments
// between them), then exactly one cross-reference section that lists every object the update
// writes at the offset where it stands, then `startxref` naming that section and `%%EOF`. Its
// trailer's /Prev names the previous revision's section, and nothing is encrypted. Tolerated,
// because every reader reads them alike: 19-byte xref entries ending in LF, an offset at the white
// space before an object's header, an xref stream not listing itself, a hybrid /XRefStm whose
// entries agree with the table. Anything else is a revision readers may read differently.

export function updateProblems(file: PdfFile, rev: Revision, prev: Revision): string[] {
  const problems: string[] = [];
  const section = rev.sections[0]!;
  if (rev.sections.length > 1) problems.push(`holds ${rev.sections.length} cross-reference sections`);
  if (section.offset < prev.end || section.offset >= rev.end)
    return [...problems, 'was appended without a cross-reference section of its own'];
  problems.push(...section.oddities);
  const { written, gaps } = readObjects(file, rev, prev, problems);
  if (!file.text.startsWith('startxref', rev.statement)) problems.push('does not end with startxref');
  const trailer = section.trailer;
  if (trailer.get('Prev') !== prev.startxref)
    problems.push(`has a trailer whose /Prev is not the previous revision's section (${prev.startxref})`);
  if (!(trailer.get('Root') instanceof Ref)) problems.push('has a trailer without a /Root reference');
  if (trailer.has('Encrypt') || prev.trailer.has('Encrypt')) problems.push('is encrypted (/Encrypt)');
  const size = trailer.get('Size');
  const entries = new Map([...(section.hidden ?? []), ...section.entries]);
  const highest = Math.max(-1, ...entries.keys());
  if (typeof size !== 'number' || size <= highest)
    problems.push(`has a /Size that does not exceed object ${highest}`);
  for (const [num, e] of entries) {
    if (e.type === 1) {
      const mine = written.get(num);
      const at = mine ? gaps.find(([, start]) => start === mine.start) : undefined;
      // At its header, or at the white space before it (the end of line of the previous %%EOF too).
      const inPlace = mine && at && e.offset <= mine.start && onlySpace(file, e.offset, mine.start);
      if (mine && !inPlace)
        problems.push(`lists object ${num} ${e.gen} at ${e.offset}, not where the update writes it`);
      if (mine && mine.gen !== e.gen)
        problems.push(`lists object ${num} as generation ${e.gen} but writes generation ${mine.gen}`);
      if (!mine) {
        const old = e.offset < prev.end ? file.objectAt(e.offset) : null;
        if (!old || old instanceof ReadError || old.num !== num || old.gen !== e.gen)
          problems.push(`lists object ${num} ${e.gen} at an offset that holds ${describe(old)}`);
      }
    } else if (e.type === 2) {
      const holder = entries.get(e.stream) ?? prev.table.get(e.stream);
      const objects = holder?.type === 1 ? file.objectStream(holder.offset) : null;
      const held = objects && !(objects instanceof ReadError) ? objects[e.index] : undefined;
      if (!held || held.num !== num)
        problems.push(
          `lists object ${num} as entry ${e.index} of object stream ${e.stream}, which holds ${held ? `object ${held.num}` : 'no such entry'} there`,
        );
    }
  }
  for (const [num, obj] of written) {
    const listed = entries.get(num);
    const self = obj.start === section.at || obj.start === section.hiddenAt;
    if (!listed && !self)
      problems.push(`writes object ${num} that its cross-reference section does not list`);
    if (obj.value instanceof Stream && isName(obj.value.dict.get('Type'), 'ObjStm')) {
      const objects = file.objectStream(obj.start);
      if (objects instanceof ReadError) problems.push(`holds object stream ${num} that cannot be read`);
    }
  }
  const last = file.lastStatement;
  if (rev === file.revisions.at(-1) && last && !last.nearEnd)
    problems.push('ends with a startxref that is not within the last 1,024 bytes');
  return [...new Set(problems)];
}

/**
 * The update's bytes read in order: objects (white space and comments between them), its xref
 * table where startxref names it, up to its `startxref`. Each object with the gap before it.
 */
function readObjects(
  file: PdfFile,
  rev: Revision,
  prev: Revision,
  problems: string[],
): { written: Map<number, IndirectObject>; gaps: [number, number][] } {
  const section = rev.sections[0]!;
  const written = new Map<number, IndirectObject>();
  let lastEnd = prev.end;
  const gaps: [number, number][] = [];
  const lex = new Lexer(file.bytes, prev.end);
  for (;;) {
    lex.skipSpace();
    if (lex.pos >= rev.statement) break;
    if (file.text.startsWith('xref', lex.pos)) {
      if (lex.pos !== section.at || section.kind !== 'table') {
        problems.push(`holds an xref table at ${lex.pos} that startxref does not name`);
        break;
      }
      lex.pos = section.end;
      continue;
    }
    const at = lex.pos;
    const obj = file.objectAt(at);
    if (obj instanceof ReadError) {
      problems.push(`holds bytes that are no object at ${at} (${obj.message})`);
      break;
    }
    if (written.has(obj.num)) problems.push(`writes object ${obj.num} twice`);
    written.set(obj.num, obj);
    gaps.push([lastEnd, obj.start]);
    lastEnd = obj.end;
    lex.pos = obj.end;
  }
  if (lex.pos !== rev.statement) problems.push('has bytes between its last object and startxref');
  return { written, gaps };
}

function onlySpace(file: PdfFile, from: number, to: number): boolean {
  return /^[\0\t\n\f\r ]*$/.test(file.text.slice(from, to));
}

function describe(obj: IndirectObject | ReadError | null): string {
  if (!obj) return 'nothing of an older revision';
  if (obj instanceof ReadError) return 'no object';
  return `object ${obj.num} ${obj.gen}`;
}
