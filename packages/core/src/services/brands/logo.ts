import { createCanvas, Image } from '@napi-rs/canvas';
import { CoreError } from '../../errors.ts';
import { cleanImageBytes, ImageValueError } from '../images.ts';

// A brand's logo (issue 44 item 1 and 5): shown to signers on every page and email, so what is
// stored can carry nothing but pixels.
// - PNG and JPEG are recognised by their content (never by a name or a declared type) and
//   re-encoded by Skia (images.ts: every chunk, marker and trailing byte dropped).
// - SVG is never stored or served as SVG: it is rasterised to PNG here. Before that, a document
//   type declaration (entities) is refused, and every reference that would leave the file (an
//   `href` or `xlink:href` to anything but `#…` or an inline image) is removed, so drawing it
//   fetches nothing; scripts and event handlers do not run in a rasteriser and are gone from the
//   PNG it gives.

/** The largest logo accepted, decoded. */
export const MAX_LOGO_BYTES = 1024 * 1024;
/** The height an SVG logo is drawn at (twice the largest height a page shows it, for sharp screens). */
const SVG_HEIGHT = 192;
const MAX_SVG_WIDTH = 1536;

/** A cleaned logo, ready to store. */
export interface CleanLogo {
  bytes: Buffer;
  type: 'image/png' | 'image/jpeg';
}

const DATA_URI_HEAD = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[^;,]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function logoTooLarge(bytes?: number): CoreError {
  const size = bytes === undefined ? '' : ` (${(bytes / 1024 / 1024).toFixed(1)} MB)`;
  return new CoreError(
    'document_too_large',
    `The logo${size} is larger than ${MAX_LOGO_BYTES / 1024 / 1024} MB; upload a smaller PNG, JPEG or SVG`,
  );
}

/** `logo` as the API takes it (base64, optionally a data: URI) → its bytes, size-checked before decoding. */
function decodeLogo(value: string): Buffer {
  const body = value.trim().replace(DATA_URI_HEAD, '').replace(/\s+/g, '');
  // base64 grows 4/3: a longer text cannot fit, and is refused without being decoded.
  if (body.length > Math.ceil(MAX_LOGO_BYTES / 3) * 4) throw logoTooLarge(Math.floor((body.length * 3) / 4));
  if (!body || !BASE64.test(body))
    throw new CoreError('invalid_document', 'logo: expected a PNG, JPEG or SVG image as base64');
  return Buffer.from(body, 'base64');
}

/** Whether the bytes are an SVG document (text whose first element is `<svg`). */
function isSvg(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const withoutProlog = head.replace(/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*/, '');
  // A document type declaration names its root first (`<!DOCTYPE svg …`); rasteriseSvg refuses it.
  return /^(<!DOCTYPE\s+svg[\s>[]|<svg[\s>])/i.test(withoutProlog);
}

/** A reference that stays inside the file: a fragment, or an inline PNG/JPEG. */
const LOCAL_REF = /^\s*(#|data:image\/(png|jpe?g);base64,)/i;

/**
 * The SVG text with nothing that leaves the file: `href`/`xlink:href`/`src` attributes pointing
 * anywhere else are removed, as are `url(…)` references to anything but a fragment.
 */
function withoutExternalRefs(svg: string): string {
  return svg
    .replace(/\s(?:xlink:)?(?:href|src)\s*=\s*("[^"]*"|'[^']*')/gi, (attr, quoted: string) =>
      LOCAL_REF.test(quoted.slice(1, -1)) ? attr : '',
    )
    .replace(/url\(\s*(['"]?)(?!#)[^)]*\1\s*\)/gi, 'none')
    .replace(/@import[^;]*;?/gi, '');
}

function svgAspect(svg: string): number {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const box = /viewBox\s*=\s*["']\s*[-\d.e]+[\s,]+[-\d.e]+[\s,]+([\d.e]+)[\s,]+([\d.e]+)/i.exec(root);
  const w = Number(box?.[1] ?? /\swidth\s*=\s*["']([\d.]+)/i.exec(root)?.[1]);
  const h = Number(box?.[2] ?? /\sheight\s*=\s*["']([\d.]+)/i.exec(root)?.[1]);
  return w > 0 && h > 0 ? w / h : 2;
}

/** An SVG logo → PNG pixels (no script, no handler, no reference survives rasterising). */
function rasteriseSvg(bytes: Buffer): Buffer {
  const text = bytes.toString('utf8');
  if (/<!(DOCTYPE|ENTITY)/i.test(text))
    throw new CoreError(
      'invalid_document',
      'logo: an SVG with a document type declaration or entities is not accepted',
    );
  const svg = withoutExternalRefs(text);
  const width = Math.min(MAX_SVG_WIDTH, Math.max(1, Math.round(SVG_HEIGHT * svgAspect(svg))));
  const height = Math.max(1, Math.round(width / svgAspect(svg)));
  const img = new Image();
  // The drawing size is ours, whatever the file declares.
  img.width = width;
  img.height = height;
  img.src = Buffer.from(svg, 'utf8');
  if (!(img.naturalWidth > 0 && img.naturalHeight > 0))
    throw new CoreError('invalid_document', 'logo: the SVG could not be drawn');
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').drawImage(img, 0, 0, width, height);
  return canvas.toBuffer('image/png');
}

/** Any accepted logo (PNG, JPEG or SVG, told by content) → the clean bytes to store. */
export function cleanLogo(value: string): CleanLogo {
  const bytes = decodeLogo(value);
  if (bytes.length > MAX_LOGO_BYTES) throw logoTooLarge(bytes.length);
  if (bytes.length === 0) throw new CoreError('invalid_document', 'logo: the file is empty');
  if (isSvg(bytes)) return { bytes: rasteriseSvg(bytes), type: 'image/png' };
  try {
    const uri = cleanImageBytes(bytes);
    const type = uri.startsWith('data:image/png') ? 'image/png' : 'image/jpeg';
    return { bytes: Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64'), type };
  } catch (err) {
    if (err instanceof ImageValueError)
      throw new CoreError('invalid_file_type', `logo: expected a PNG, JPEG or SVG image (${err.message})`);
    throw err;
  }
}

/** The stored logo as a `data:` URI (what pages and previews show). */
export const logoDataUri = (logo: { logo: Buffer | null; logo_type: string | null }): string | null =>
  logo.logo && logo.logo_type ? `data:${logo.logo_type};base64,${logo.logo.toString('base64')}` : null;
