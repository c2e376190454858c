import type { Config } from '../config.ts';
import { CoreError } from '../errors.ts';
import { poolBusy } from './documents-input.ts';
import { hmac, safeEqual } from './secret.ts';

/** What a signed link grants: one stored file (or one rendered page of it), until it expires. */
export interface FileLink {
  /** storage key */
  k: string;
  /** content type */
  t: string;
  /** download file name */
  n: string;
  /** 1-based page to render as PNG, for page images */
  p?: number;
  /** expiry, unix seconds */
  e: number;
}

export const FILE_LINK_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Document and image URLs returned by the API: signed, expiring links served by the service, so
 * they work without an API key and cannot be guessed or altered.
 */
export function signFileLink(
  config: Config,
  link: Omit<FileLink, 'e'>,
  now: Date,
  ttlSeconds = FILE_LINK_TTL_SECONDS,
): string {
  const payload = Buffer.from(
    JSON.stringify({ ...link, e: Math.floor(now.getTime() / 1000) + ttlSeconds }),
  ).toString('base64url');
  const sig = hmac(config, 'file-link', payload).subarray(0, 24).toString('base64url');
  const ext = link.p ? 'png' : (link.n.split('.').pop() ?? 'bin');
  return `${config.PUBLIC_URL}/files/${payload}.${sig}/${encodeURIComponent(link.n.replace(/\.[^.]+$/, ''))}.${ext}`;
}

export function verifyFileLink(config: Config, token: string, now: Date): FileLink {
  const [payload, sig] = token.split('.');
  if (!payload || !sig) throw new CoreError('not_found', 'Unknown or malformed file link');
  const expected = hmac(config, 'file-link', payload).subarray(0, 24);
  if (!safeEqual(Buffer.from(sig, 'base64url'), expected))
    throw new CoreError('not_found', 'Unknown or malformed file link');
  const link = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as FileLink;
  if (link.e * 1000 < now.getTime())
    throw new CoreError('not_found', 'This file link has expired; fetch the resource again for a fresh link');
  return link;
}

/** Serves a signed link: the stored file, or a page image rendered on first request and cached. */
export async function readLinkedFile(
  deps: { storage: import('./storage.ts').FileStore },
  config: Config,
  token: string,
  now: Date,
): Promise<{ bytes: Uint8Array; contentType: string; fileName: string }> {
  const link = verifyFileLink(config, token, now);
  if (link.p) {
    const png = await pageImage(deps.storage, link.k, link.p);
    return { bytes: png, contentType: 'image/png', fileName: link.n };
  }
  return { bytes: await deps.storage.get(link.k), contentType: link.t, fileName: link.n };
}

/** Page image of a stored PDF: rendered once (by the worker after upload, or on first request) and cached. */
export async function pageImage(
  storage: import('./storage.ts').FileStore,
  pdfKey: string,
  page: number,
  pdf?: Uint8Array,
): Promise<Uint8Array> {
  const key = `${pdfKey}.page-${page}.png`;
  if (await storage.exists(key)) return storage.get(key);
  const { renderPagePng, DocumentPoolBusyError } = await import('@esign/pdf');
  try {
    const png = await renderPagePng(pdf ?? (await storage.get(pdfKey)), page, {
      width: 1240,
      tenant: accountOfKey(pdfKey),
    });
    await storage.put(key, png, 'image/png');
    return png;
  } catch (err) {
    // Every worker busy and the waiting line full: the viewer asks again later (429, Retry-After).
    if (err instanceof DocumentPoolBusyError) throw poolBusy(err, `Page ${page}`);
    throw err;
  }
}

/**
 * The account a stored file belongs to, from its key (`templates/<account>/…`, `requests/<account>/…`):
 * rendering runs in the shared document pool as that account's work, so one account's slow pages
 * never hold every worker.
 */
function accountOfKey(key: string): string | undefined {
  return /^(?:templates|requests)\/(\d+)\//.exec(key)?.[1];
}
