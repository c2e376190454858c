import { createCanvas, Image } from '@napi-rs/canvas';
import { imageSize } from 'image-size';

/**
 * The one check of a picture a signer or a sender gives (signature, initials, image and stamp
 * fields): a PNG or JPEG that decodes, at most MAX_IMAGE_SIDE pixels each way and MAX_IMAGE_BYTES,
 * re-encoded by Skia (@napi-rs/canvas) into a clean image of the same format. Sealing draws only
 * what this returns, so a value that cannot be drawn never completes a request.
 *
 * - The size is read from the header (image-size) before anything is decoded: a small file
 *   declaring 30000 × 30000 pixels is refused without allocating them.
 * - Re-encoding drops every ancillary chunk and marker (text, EXIF, ICC, trailing bytes).
 * - Synchronous on purpose: it runs inside the one value check (field-values.ts), shared by the
 *   signing procedures and both prefill paths. Its cost is bounded by the limits below (a few ms
 *   for a drawn signature; about 0.5 s for a 4096 × 4096 photo).
 */
const MAX_IMAGE_BYTES = 3 * 1024 * 1024;
const MAX_IMAGE_SIDE = 4096;
/** A re-encoded image may grow (JPEG quality 90, PNG without the sender's filters); never past this. */
const MAX_CLEAN_BYTES = 2 * MAX_IMAGE_BYTES;
const JPEG_QUALITY = 90;

const DATA_URI = /^data:image\/(png|jpe?g);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Why a value is not an acceptable image; the caller names the field. */
export class ImageValueError extends Error {
  override readonly name = 'ImageValueError';
}

/**
 * A field value given as a `data:image/png|jpeg;base64,` URI or as plain base64 (the spec's "a
 * base64 image"; the format is sniffed) → a clean `data:` URI.
 */
export function cleanImageValue(value: string): string {
  const body = value.trim().replace(DATA_URI, '').replace(/\s+/g, '');
  if (body.startsWith('data:')) throw new ImageValueError('expected a PNG or JPEG image');
  // Checked before decoding: base64 grows 4/3.
  if (body.length > Math.ceil(MAX_IMAGE_BYTES / 3) * 4) throw tooLarge();
  if (!body || !BASE64.test(body)) throw new ImageValueError('expected a PNG or JPEG image as base64');
  return cleanImageBytes(Buffer.from(body, 'base64'));
}

/** PNG or JPEG bytes → a clean `data:` URI of the same format. */
export function cleanImageBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new ImageValueError('the image is empty');
  if (bytes.length > MAX_IMAGE_BYTES) throw tooLarge();
  const header = readHeader(bytes);
  const img = new Image();
  img.src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Skia reports an image it cannot decode as 0 × 0 (and fires onerror).
  if (!(img.width > 0 && img.height > 0)) throw new ImageValueError('the image could not be decoded');
  checkSide(img.width, img.height);
  const canvas = createCanvas(img.width, img.height);
  canvas.getContext('2d').drawImage(img, 0, 0);
  const clean =
    header.format === 'png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg', JPEG_QUALITY);
  if (clean.length > MAX_CLEAN_BYTES) throw tooLarge();
  return `data:image/${header.format};base64,${clean.toString('base64')}`;
}

/** Decoded RGBA pixels of a `data:` URI or base64 image, or null when it does not decode. */
function pixelsOf(value: string): { width: number; height: number; data: Uint8ClampedArray } | null {
  const body = value.trim().replace(DATA_URI, '').replace(/\s+/g, '');
  if (!body || !BASE64.test(body) || body.length > Math.ceil(MAX_IMAGE_BYTES / 3) * 4) return null;
  const img = new Image();
  img.src = Buffer.from(body, 'base64');
  if (!(img.width > 0 && img.height > 0) || img.width > MAX_IMAGE_SIDE || img.height > MAX_IMAGE_SIDE)
    return null;
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
}

/**
 * Whether `given` is the picture `stored` holds (issue 33 item 3): a stored picture is the clean
 * re-encoding of what was given, so a client sending back the image it gave gets other bytes than
 * those stored. The same picture is: the same text; or one that cleans (cleanImageValue, the same
 * normalisation as when it was stored) to the stored bytes; or one that decodes to the same pixels
 * (a lossless image, whatever encoder wrote it). Anything else, or what does not decode, is not.
 */
export function sameImage(given: string, stored: string): boolean {
  if (given === stored) return true;
  try {
    if (cleanImageValue(given) === stored) return true;
  } catch (err) {
    if (err instanceof ImageValueError) return false;
    throw err;
  }
  const a = pixelsOf(given);
  const b = a ? pixelsOf(stored) : null;
  if (!a || !b || a.width !== b.width || a.height !== b.height) return false;
  return Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(
    Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength),
  );
}

function readHeader(bytes: Uint8Array): { format: 'png' | 'jpeg' } {
  let found: ReturnType<typeof imageSize>;
  try {
    found = imageSize(bytes);
  } catch {
    throw new ImageValueError('not a PNG or JPEG image, or damaged');
  }
  if (found.type !== 'png' && found.type !== 'jpg')
    throw new ImageValueError(`expected a PNG or JPEG image, got ${found.type ?? 'another format'}`);
  checkSide(found.width, found.height);
  return { format: found.type === 'png' ? 'png' : 'jpeg' };
}

function checkSide(width: number, height: number) {
  if (!(width > 0 && height > 0)) throw new ImageValueError('the image has no size');
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new ImageValueError(
      `the image is ${width} × ${height} pixels; at most ${MAX_IMAGE_SIDE} × ${MAX_IMAGE_SIDE}`,
    );
  }
}

const tooLarge = () => new ImageValueError('image larger than 3 MB');
