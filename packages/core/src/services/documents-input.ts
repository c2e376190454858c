import {
  DocumentInputError,
  DocumentPoolBusyError,
  type IngestedDocument,
  ingestDocument,
} from '@esign/pdf/pool';
import {
  guardedFetch,
  OutboundBlockedError,
  OutboundTimeoutError,
  OutboundTooLargeError,
} from '@esign/webhooks';
import type { CoreDeps } from '../context.ts';
import { CoreError } from '../errors.ts';
import { DATA_URI_HEAD, WHOLE_BASE64 } from './base64-upload.ts';
import { readUploaded, tooLargeMessage } from './uploads.ts';

export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;
export const MAX_DOCUMENTS = 10;
const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * Turns one `documents[].file` value into bytes: a file this multipart request streamed to disk
 * (services/uploads.ts), base64 (optionally a data: URI) or an https:// URL downloaded through the
 * project's outbound-fetch guard. Sizes are checked before decoding and
 * while downloading, never after buffering an unbounded body.
 */
export async function readDocumentFile(file: string, label: string, deps: CoreDeps): Promise<Uint8Array> {
  const uploaded = await readUploaded(deps.uploads, { file, label, maxBytes: MAX_DOCUMENT_BYTES });
  if (uploaded) return uploaded;
  const trimmed = file.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    if (!/^https:\/\//i.test(trimmed))
      throw new CoreError('invalid_document', `${label}: only https:// URLs can be downloaded`);
    try {
      const res = await guardedFetch(trimmed, {
        timeoutMs: DOWNLOAD_TIMEOUT_MS,
        maxBytes: MAX_DOCUMENT_BYTES,
        allowedProtocols: ['https:'],
        allowPrivate: deps.outbound?.allowPrivate ?? false,
        ca: deps.outbound?.ca,
        lookup: deps.outbound?.lookup,
        requireOk: true,
      });
      if (res.body.length === 0)
        throw new CoreError('invalid_document', `${label}: the URL returned an empty file`);
      return res.body;
    } catch (err) {
      if (err instanceof CoreError) throw err;
      if (err instanceof OutboundTooLargeError) {
        throw new CoreError('document_too_large', `${label}: the download is larger than 25 MB`);
      }
      if (err instanceof OutboundBlockedError) {
        throw new CoreError('invalid_document', `${label}: the URL is not allowed (${err.reason})`);
      }
      if (err instanceof OutboundTimeoutError)
        throw new CoreError('invalid_document', `${label}: the download timed out`);
      throw new CoreError(
        'invalid_document',
        `${label}: the URL could not be downloaded (${(err as Error).message})`,
      );
    }
  }
  const base64 = trimmed.replace(DATA_URI_HEAD, '').replace(/\s+/g, '');
  if (base64.length === 0) throw new CoreError('invalid_document', `${label} is empty`);
  if (!WHOLE_BASE64.test(base64)) {
    throw new CoreError('invalid_document', `${label} is neither valid base64 nor an https:// URL`);
  }
  const estimated = Math.floor((base64.length * 3) / 4);
  if (estimated > MAX_DOCUMENT_BYTES + 2) {
    throw new CoreError('document_too_large', tooLargeMessage(label, estimated));
  }
  const bytes = Buffer.from(base64, base64.includes('-') || base64.includes('_') ? 'base64url' : 'base64');
  if (bytes.length === 0) throw new CoreError('invalid_document', `${label} is empty`);
  if (bytes.length > MAX_DOCUMENT_BYTES)
    throw new CoreError('document_too_large', tooLargeMessage(label, bytes.length));
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Seconds a caller is asked to wait when the document pool's waiting line is full. */
const POOL_BUSY_RETRY_SECONDS = 10;

/** The pool's full waiting line as the spec's 429 `rate_limited`, with the seconds to wait. */
export function poolBusy(err: DocumentPoolBusyError, label?: string): CoreError {
  return new CoreError('rate_limited', label ? `${label}: ${err.message}` : err.message, {
    retryAfterSeconds: POOL_BUSY_RETRY_SECONDS,
  });
}

/**
 * Runs the PDF pipeline in the process's document pool, as `accountId`'s work (the pool runs only
 * part of its workers for one account), and maps its errors to the spec's codes.
 */
export async function ingest(
  bytes: Uint8Array,
  { label, password, accountId }: { label: string; password: string | undefined; accountId: number },
): Promise<IngestedDocument> {
  try {
    return await ingestDocument({ bytes, password, tenant: String(accountId) });
  } catch (err) {
    if (err instanceof DocumentInputError) throw new CoreError(err.code, `${label}: ${err.message}`);
    if (err instanceof DocumentPoolBusyError) throw poolBusy(err, label);
    throw err;
  }
}
