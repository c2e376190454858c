import type { Executor } from '@esign/db';
import { findRequestFiles } from '@esign/db/queries/sealing';
import type { Config } from '../config.ts';
import { CoreError } from '../errors.ts';
import { signFileLink } from './file-links.ts';
import { producedFiles } from './request-model.ts';
import { sealedFileNamer } from './sealed-downloads.ts';
import { hmac, safeEqual } from './secret.ts';

// Short links to a request's sealed files (issue 42.2): what the completion SMS carries, as the
// invitation carries the short `/s/<token>` signing link. A signed file link (`/files/…`) holds the
// storage key, type and name, ~290 characters, three SMS segments alone; this one is
// `/d/<35 characters>`: 26 bytes, base64url, that name the request, the file (the first 6 bytes of
// its SHA-256), the expiry, and an 80-bit HMAC over them under the server secret. Opening it looks
// the file up and answers with a fresh signed file link, so nothing about the file can be read from
// or altered in the short link, and a file the request no longer holds (retention) is gone. The
// file downloads under the name the emails give it, led by the request's brand (issue 44).

const SHA_BYTES = 6;
const MAC_BYTES = 10;
/** request id (6 bytes, up to 2^48), file hash prefix, expiry (unix seconds, 4 bytes), MAC */
const TOKEN_BYTES = 6 + SHA_BYTES + 4 + MAC_BYTES;
/** How long the file link a short link answers with is valid: enough to download it. */
const REDIRECT_TTL_SECONDS = 3600;

/** The short link to the file of `sha256` produced by request `requestId`, valid `ttlSeconds`. */
export function shortFileLink(
  config: Config,
  file: { requestId: number; sha256: string },
  { now, ttlSeconds }: { now: Date; ttlSeconds: number },
): string {
  const body = Buffer.alloc(TOKEN_BYTES - MAC_BYTES);
  body.writeUIntBE(file.requestId, 0, 6);
  Buffer.from(file.sha256, 'hex').copy(body, 6, 0, SHA_BYTES);
  body.writeUInt32BE(Math.floor(now.getTime() / 1000) + ttlSeconds, 6 + SHA_BYTES);
  const mac = hmac(config, 'short-file-link', body.toString('base64url')).subarray(0, MAC_BYTES);
  return `${config.PUBLIC_URL}/d/${Buffer.concat([body, mac]).toString('base64url')}`;
}

/**
 * Where a short link leads: a fresh signed file link to its file. An altered, unknown or expired
 * link, or a file the request no longer holds, is `404 not_found`.
 */
export async function resolveShortFileLink(
  ctx: { db: Executor; config: Config; now: () => Date },
  token: string,
): Promise<string> {
  const unknown = () => new CoreError('not_found', 'Unknown or expired link');
  const raw = /^[\w-]+$/.test(token) ? Buffer.from(token, 'base64url') : Buffer.alloc(0);
  if (raw.length !== TOKEN_BYTES) throw unknown();
  const body = raw.subarray(0, TOKEN_BYTES - MAC_BYTES);
  const expected = hmac(ctx.config, 'short-file-link', body.toString('base64url')).subarray(0, MAC_BYTES);
  if (!safeEqual(raw.subarray(TOKEN_BYTES - MAC_BYTES), expected)) throw unknown();
  const now = ctx.now();
  if (body.readUInt32BE(6 + SHA_BYTES) * 1000 < now.getTime())
    throw new CoreError('not_found', 'This link has expired; ask the sender for the signed documents');
  const request = await findRequestFiles(ctx.db, body.readUIntBE(0, 6));
  const prefix = body.subarray(6, 6 + SHA_BYTES).toString('hex');
  const file = producedFiles(request?.documents).find((f) => f.sha256.startsWith(prefix));
  if (!request || !file) throw unknown();
  // Named as in the emails: the request's brand first, in the request's language (issue 44).
  const name = (await sealedFileNamer(ctx.db, request))(file);
  return signFileLink(
    ctx.config,
    { k: file.storage_key, t: 'application/pdf', n: name },
    { now, ttlSeconds: REDIRECT_TTL_SECONDS },
  );
}
