import type { PDF } from '@libpdf/core';
import type { Canvas } from './canvas.ts';
import type { SigningIdentity } from './identity.ts';
import { shapeLine } from './text.ts';

export const TEST_MARK_TEXT = 'TEST DOCUMENT - NOT LEGALLY BINDING';

/**
 * Draws the test-mode mark on a page (display coordinates): a translucent diagonal band across
 * the page and an opaque line at the top edge, so it survives cropping and shows on every page.
 */
export function drawTestMark(canvas: Canvas, width: number, height: number): void {
  const line = shapeLine(TEST_MARK_TEXT, 'bold');
  const diagonal = Math.hypot(width, height);
  const size = Math.min((diagonal * 0.75) / line.width, Math.min(width, height) * 0.12);
  const angle = Math.atan2(height, width);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  canvas
    .save()
    .opacity(0.28)
    .transform(cos, sin, -sin, cos, width / 2, height / 2)
    .text(line, (-line.width * size) / 2, -size * 0.35, size, [0.85, 0.05, 0.05])
    .restore();
  const top = Math.min(10, Math.max(5, width / 60));
  canvas
    .save()
    .fillColor([1, 0.93, 0.93])
    .rect(0, height - top * 1.9, width, top * 1.9)
    .raw('f')
    .text(line, (width - line.width * top) / 2, height - top * 1.35, top, [0.8, 0, 0])
    .restore();
}

export interface SignPdfOptions {
  reason?: string;
  location?: string;
  signingTime?: Date;
  fieldName?: string;
}

/**
 * Adds the one final signature: PAdES baseline B-B (SubFilter ETSI.CAdES.detached, CMS signed
 * attributes content-type, signing-time, message-digest, signing-certificate-v2, algorithm
 * protection), covering every byte of the file except the signature value itself.
 */
export async function signPdf(
  pdf: PDF,
  identity: SigningIdentity,
  opts: SignPdfOptions,
): Promise<Uint8Array> {
  const certBytes = [identity.signer.certificate, ...(identity.signer.certificateChain ?? [])].reduce(
    (n, c) => n + c.length,
    0,
  );
  const result = await pdf.sign({
    signer: identity.signer,
    subFilter: 'ETSI.CAdES.detached',
    digestAlgorithm: 'SHA-256',
    reason: opts.reason === undefined ? undefined : dictText(opts.reason),
    location: opts.location === undefined ? undefined : dictText(opts.location),
    signingTime: opts.signingTime ?? new Date(),
    fieldName: opts.fieldName,
    estimatedSize: 6144 + certBytes,
  });
  return result.bytes;
}

/**
 * @libpdf/core 0.4 escapes /Reason and /Location twice (a `(` ends up as `\\(` in the viewer), so
 * the characters it escapes are replaced before they reach it.
 */
function dictText(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/\(/g, '[')
    .replace(/\)/g, ']')
    .replace(/\\/g, '/');
}
