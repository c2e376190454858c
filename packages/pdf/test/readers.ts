import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

// The readers the verifier tests hold it against (poppler and MuPDF): what each shows of a file,
// page by page, and whether two showings differ. Shared by verify-corpus.test.ts,
// verify-families.test.ts and verify-outside.test.ts.

const run = promisify(execFile);

export interface Shown {
  text: string[];
  images: Buffer[];
}

export interface Reader {
  name: string;
  /** What the reader shows of a file: each page's text and a small grey rendering; null when it cannot read it. */
  show: (dir: string, name: string, bytes: Uint8Array) => Promise<Shown | null>;
}

/** The rendered pages `${name}-N.pgm` in dir, in page order. */
function pagesIn(dir: string, name: string): Buffer[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.pgm'))
    .sort((a, b) => Number(/-(\d+)\.pgm$/.exec(a)![1]) - Number(/-(\d+)\.pgm$/.exec(b)![1]))
    .map((f) => readFileSync(path.join(dir, f)));
}

export const poppler: Reader = {
  name: 'poppler',
  async show(dir, name, bytes) {
    const file = path.join(dir, `${name}.pdf`);
    writeFileSync(file, bytes);
    try {
      const { stdout } = await run('pdftotext', ['-layout', file, '-'], { maxBuffer: 16 << 20 });
      await run('pdftoppm', ['-r', '24', '-gray', file, path.join(dir, name)]);
      const images = pagesIn(dir, name);
      return { text: stdout.split('\f').slice(0, images.length), images };
    } catch {
      return null;
    }
  },
};

/**
 * MuPDF's text is its structured text (`-F stext`: every character with its position, font and
 * colour, one <page> element a page), so white or moved text counts as well as other words.
 * mutool repairs a broken xref with a warning and exits 1 when a page failed to draw (an object
 * that is not a stream, an XObject without /Subtype) yet still writes every page, drawn as far
 * as it got: that is what a MuPDF viewer shows, so it is compared like any other showing. MuPDF
 * cannot read the file only when it writes no page at all (the file does not open, or has no
 * page tree it can find).
 */
export const mupdf: Reader = {
  name: 'MuPDF',
  async show(dir, name, bytes) {
    const file = path.join(dir, `${name}.pdf`);
    writeFileSync(file, bytes);
    const draw = (args: string[]) =>
      run('mutool', ['draw', ...args, file], { maxBuffer: 16 << 20 }).catch((e: { stdout?: string }) => ({
        stdout: e.stdout ?? '',
      }));
    const [{ stdout }] = await Promise.all([
      draw(['-F', 'stext', '-o', '-']),
      draw(['-r', '24', '-c', 'gray', '-o', path.join(dir, `${name}-%d.pgm`)]),
    ]);
    const images = pagesIn(dir, name);
    if (images.length === 0) return null;
    return { text: (stdout.match(/<page [\s\S]*?<\/page>/g) ?? []).slice(0, images.length), images };
  },
};

/** Why two showings in one reader differ (null when they are the same). */
export function differs(reader: Reader, a: Shown | null, b: Shown | null): string | null {
  if (!a || !b) return a === b ? null : `${reader.name} cannot read one of them`;
  if (a.images.length !== b.images.length) return `${a.images.length} pages against ${b.images.length}`;
  for (let i = 0; i < a.images.length; i++) {
    if (a.text[i] !== b.text[i]) return `text of page ${i + 1}`;
    if (!a.images[i]!.equals(b.images[i]!)) return `rendering of page ${i + 1}`;
  }
  return null;
}

export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!, i);
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}
