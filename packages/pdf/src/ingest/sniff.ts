/**
 * File type sniffing from magic bytes. Never trusts a file name or a declared content type.
 */
export type SniffedKind = 'pdf' | 'image' | 'unknown';

export interface SniffResult {
  kind: SniffedKind;
  mimeType: string;
}

/** PDF readers accept the `%PDF-` header anywhere in the first 1024 bytes (leading junk is common). */
const PDF_HEADER_WINDOW = 1024;

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0): boolean => {
  if (bytes.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false;
  return true;
};

const ascii = (bytes: Uint8Array, from: number, to: number): string => {
  let out = '';
  for (let i = from; i < Math.min(to, bytes.length); i++) out += String.fromCharCode(bytes[i]!);
  return out;
};

const readU32LE = (b: Uint8Array, at: number): number =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

function findPdfHeader(bytes: Uint8Array): number {
  const limit = Math.min(bytes.length - 5, PDF_HEADER_WINDOW);
  for (let i = 0; i <= limit; i++) {
    if (
      bytes[i] === 0x25 &&
      bytes[i + 1] === 0x50 &&
      bytes[i + 2] === 0x44 &&
      bytes[i + 3] === 0x46 &&
      bytes[i + 4] === 0x2d
    )
      return i;
  }
  return -1;
}

/** Major and compatible brands of an ISO BMFF `ftyp` box (HEIF/HEIC and AVIF still images). */
function isoBrands(bytes: Uint8Array): string[] {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return [];
  const boxSize = Math.min(
    ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0,
    256,
    bytes.length,
  );
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, at + 4));
  return brands;
}

/**
 * Identifies PDFs and common raster image formats by their signature bytes.
 * `kind: 'image'` does not promise the image can be converted; see `ingestDocument` for the
 * supported subset (HEIC, for example, is recognised only to give a precise error).
 */
export function sniffFileType(bytes: Uint8Array): SniffResult {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0)
    return { kind: 'unknown', mimeType: 'application/octet-stream' };
  if (findPdfHeader(bytes) >= 0) return { kind: 'pdf', mimeType: 'application/pdf' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { kind: 'image', mimeType: 'image/png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'image', mimeType: 'image/jpeg' };
  const head6 = ascii(bytes, 0, 6);
  if (head6 === 'GIF87a' || head6 === 'GIF89a') return { kind: 'image', mimeType: 'image/gif' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return { kind: 'image', mimeType: 'image/webp' };
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return { kind: 'image', mimeType: 'image/tiff' };
  if (bytes.length >= 26 && bytes[0] === 0x42 && bytes[1] === 0x4d) {
    // "BM" alone is too weak (plain text can start with it): also require a known DIB header size.
    const dib = readU32LE(bytes, 14);
    if ([12, 40, 52, 56, 64, 108, 124].includes(dib)) return { kind: 'image', mimeType: 'image/bmp' };
  }
  const brands = isoBrands(bytes);
  if (brands.some((b) => b === 'avif' || b === 'avis')) return { kind: 'image', mimeType: 'image/avif' };
  if (brands.some((b) => ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(b)))
    return { kind: 'image', mimeType: 'image/heic' };
  return { kind: 'unknown', mimeType: 'application/octet-stream' };
}
