// Why @libpdf/core is the PDF engine (packages/pdf/README.md): a sealed file is changed (its title)
// and saved again, once with @libpdf/core's incremental save and once with pdf-lib, the library
// the design first named. Prints how many leading bytes of the sealed file each output keeps and
// pdfsig's verdict on the seal.
//
//   node packages/pdf/test/engine-bench/incremental-save.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDF, StandardFonts } from '@libpdf/core';
import { PDFDocument } from 'pdf-lib';
import { loadSigningIdentity, sealDocument } from '../../src/index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'esign-incremental-'));

function keptPrefix(original: Uint8Array, saved: Uint8Array): number {
  const n = Math.min(original.length, saved.length);
  for (let i = 0; i < n; i++) if (original[i] !== saved[i]) return i;
  return n;
}

/** pdfsig's lines on validity, coverage and ByteRange errors (stdout and stderr). */
function pdfsig(name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  const run = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  if (run.error) throw run.error;
  const lines = `${run.stdout}\n${run.stderr}`.split('\n').map((l) => l.trim().replace(/^- /, ''));
  return [...new Set(lines.filter((l) => /Signature Validation|document signed|ByteRange/.test(l)))].join(
    '; ',
  );
}

const say = (line: string) => process.stdout.write(`${line}\n`);

const source = PDF.create();
for (let i = 1; i <= 3; i++) {
  source
    .addPage({ size: 'a4' })
    .drawText(`Contract page ${i}`, { x: 40, y: 800, font: StandardFonts.Helvetica });
}
const identity = await loadSigningIdentity({ dataDir: dir });
const sealed = await sealDocument({ pdf: await source.save(), values: [], identity, name: 'incremental' });

const libpdf = await PDF.load(sealed);
libpdf.setTitle('Changed after sealing');
const incremental = await libpdf.save({ incremental: true });
const pdfLib = await PDFDocument.load(sealed);
pdfLib.setTitle('Changed after sealing');
const rewritten = await pdfLib.save();

say('| file | bytes | leading bytes of the sealed file kept | pdfsig |');
say('| --- | --- | --- | --- |');
for (const [name, bytes] of [
  ['sealed', sealed],
  ['@libpdf/core save({ incremental: true })', incremental],
  ['pdf-lib save()', rewritten],
] as const) {
  const kept = keptPrefix(sealed, bytes);
  say(`| ${name} | ${bytes.length} | ${kept} of ${sealed.length} | ${pdfsig(`${kept}.pdf`, bytes)} |`);
}
rmSync(dir, { recursive: true, force: true });
