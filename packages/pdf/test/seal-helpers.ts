import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDF, StandardFonts } from '@libpdf/core';
import { createCanvas } from '@napi-rs/canvas';
import { expect } from 'vitest';

/** Fails with an install hint when poppler-utils / qpdf are missing (CI must install them). */
export function requireTool(tool: string): void {
  if (spawnSync('which', [tool]).status !== 0) {
    throw new Error(`${tool} is not installed: apt-get install -y poppler-utils qpdf`);
  }
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `esign-${prefix}-`));
}

export function writeTemp(dir: string, name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** pdfsig must call the (only) signature valid and covering the whole file; qpdf --check must pass. */
export function expectValidSignedPdf(file: string): string {
  requireTool('pdfsig');
  requireTool('qpdf');
  const sig = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  expect(sig).toContain('Signature Validation: Signature is Valid.');
  expect(sig).toContain('Total document signed');
  expect(sig).toContain('Signature Type: ETSI.CAdES.detached');
  expect(sig.match(/^Signature #\d+:/gm)).toHaveLength(1);
  const check = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
  expect(check.status, check.stdout + check.stderr).toBe(0);
  expect(check.stdout).toContain('No syntax or stream encoding errors found');
  return sig;
}

export function pdfText(file: string, page?: number): string {
  const range = page ? ['-f', String(page), '-l', String(page)] : [];
  return execFileSync('pdftotext', [...range, file, '-'], { encoding: 'utf8' });
}

export interface WordBox {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Word boxes from pdftotext -bbox, in displayed-page points (origin top-left). */
export function wordBoxes(file: string, page: number): WordBox[] {
  const html = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-'], {
    encoding: 'utf8',
  });
  const words: WordBox[] = [];
  const re = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    words.push({ xMin: +m[1]!, yMin: +m[2]!, xMax: +m[3]!, yMax: +m[4]!, text: m[5]! });
  }
  return words;
}

export function fontNames(file: string): string {
  // stderr ignored: pdffonts complains about the fixture's inline (direct) Helvetica font dict.
  return execFileSync('pdffonts', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** A plain source document: `pages` pages with a line of Helvetica text each. */
export async function sourcePdf(
  pages: number,
  opts: { rotate?: number; withField?: boolean } = {},
): Promise<Uint8Array> {
  const doc = PDF.create();
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage({ size: 'a4', rotate: i === 0 ? opts.rotate : undefined });
    page.drawText(`Contract page ${i + 1}`, { x: 40, y: 800, size: 10, font: StandardFonts.Helvetica });
  }
  if (opts.withField) {
    const field = doc.getOrCreateForm().createTextField('company', {});
    doc.getPage(pages - 1)!.drawField(field, { x: 100, y: 600, width: 200, height: 24 });
    field.setValue('Acme Field Value');
  }
  return doc.save();
}

/** A small PNG (a dark stroke on transparent background) as a data: URI, like a drawn signature. */
export function signaturePng(): string {
  const canvas = createCanvas(300, 100);
  const ctx = canvas.getContext('2d');
  ctx.strokeStyle = '#123';
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.moveTo(10, 70);
  ctx.bezierCurveTo(80, -20, 120, 140, 180, 40);
  ctx.lineTo(290, 60);
  ctx.stroke();
  return `data:image/png;base64,${canvas.toBuffer('image/png').toString('base64')}`;
}

export function signatureJpeg(): string {
  const canvas = createCanvas(200, 80);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 200, 80);
  ctx.fillStyle = '#024';
  ctx.fillRect(20, 30, 160, 10);
  return `data:image/jpeg;base64,${canvas.toBuffer('image/jpeg', 90).toString('base64')}`;
}
