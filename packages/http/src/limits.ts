import {
  type BodyKind,
  CoreError,
  MAX_BULK_FILE_BYTES,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS,
  MAX_LOGO_BYTES,
  MAX_TEMPLATE_FIELDS,
  type Meta,
} from '@esign/core';
import type { FastifyRequest } from 'fastify';

/** Every JSON body unless its route says otherwise. */
export const JSON_LIMIT = 1024 * 1024;
/**
 * A template's `fields` at their maximum (MAX_TEMPLATE_FIELDS, about 1 kB each at most for a usual
 * field), with the 1 MB of any JSON body: PATCH /templates/{id} (issue 29 item 3).
 */
export const TEMPLATE_FIELDS_LIMIT = MAX_TEMPLATE_FIELDS * 1024 + JSON_LIMIT;
/** POST /templates (and MCP create_template) carries up to 10 base64 documents of 25 MB each, and fields. */
export const TEMPLATE_UPLOAD_LIMIT =
  MAX_DOCUMENTS * Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + TEMPLATE_FIELDS_LIMIT;
/** POST /documents/verify carries one base64 PDF of 25 MB at most. */
export const VERIFY_UPLOAD_LIMIT = Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 64 * 1024;

/**
 * POST /bulk_sends and /bulk_sends/preview carry one base64 file of 5 MB (docs/sending.md), with
 * the 1 MB of any JSON body for the mapping and the message (issue 41 item 7: they stopped at 1 MB).
 * A larger file within this limit is refused by the file's own check (`The file is larger than 5 MB`).
 */
export const BULK_UPLOAD_LIMIT = Math.ceil((MAX_BULK_FILE_BYTES * 4) / 3) + JSON_LIMIT;

/**
 * POST and PATCH /brands carry one base64 logo of 1 MB at most, with the 1 MB of any JSON body (issue
 * 44). A larger body is the logo's own error (`document_too_large`), so a 50 MB logo reads as what it is.
 */
export const BRAND_UPLOAD_LIMIT = Math.ceil((MAX_LOGO_BYTES * 4) / 3) + JSON_LIMIT;

/** How large a request body may be, and the error when it is larger. */
export interface BodyLimit {
  bytes: number;
  /** `document_too_large` where the body is one document (POST /documents/verify). */
  code: 'invalid_request' | 'document_too_large';
  /** The error's message when it is not the document's (a brand's logo: issue 44). */
  message?: string;
}

/** The bytes of each body kind a procedure's meta names (`request.body`), and its error. */
export const BODY_LIMITS: Readonly<Record<BodyKind, BodyLimit>> = {
  json: { bytes: JSON_LIMIT, code: 'invalid_request' },
  template_upload: { bytes: TEMPLATE_UPLOAD_LIMIT, code: 'invalid_request' },
  template_fields: { bytes: TEMPLATE_FIELDS_LIMIT, code: 'invalid_request' },
  document: { bytes: VERIFY_UPLOAD_LIMIT, code: 'document_too_large' },
  bulk_file: { bytes: BULK_UPLOAD_LIMIT, code: 'invalid_request' },
  logo: {
    bytes: BRAND_UPLOAD_LIMIT,
    code: 'document_too_large',
    message: 'The logo is larger than 1 MB; upload a smaller PNG, JPEG or SVG',
  },
};

/**
 * A procedure's body limit, from its meta alone (issue 43: no adapter keeps a list of paths);
 * 1 MB of JSON when its meta names none.
 */
export function bodyLimitOfMeta(meta: Pick<Meta, 'request'> | undefined): BodyLimit {
  return BODY_LIMITS[meta?.request?.body ?? 'json'];
}

/**
 * Where these procedures' inputs carry documents (their meta's `request.documents`), each path
 * under `prefix` (where the adapter puts the input in its message), without repeats.
 */
export function documentPathsOfMeta(
  metas: readonly Pick<Meta, 'request'>[],
  prefix: readonly string[] = [],
): string[][] {
  const seen = new Map<string, string[]>();
  for (const meta of metas)
    for (const path of meta.request?.documents ?? []) {
      const full = [...prefix, ...path];
      seen.set(full.join('\u0000'), full);
    }
  // Longest first, the order the adapters listed them in before (issue 43): with the REST routes'
  // order instead (`file` before `documents.*.file`) the streaming parser's test of two parser
  // threads at once failed (apps/api/test/json-uploads.int.test.ts); not investigated further.
  return [...seen.values()].sort((a, b) => b.length - a.length);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route whose limit depends on the request (the REST adapter serves every endpoint from one
     * route). Without it the route's `bodyLimit` applies, else the server's 1 MB.
     */
    bodyLimit?: (request: FastifyRequest) => BodyLimit;
  }
}

export function bodyLimitOf(request: FastifyRequest): BodyLimit {
  const custom = request.routeOptions.config?.bodyLimit?.(request);
  return custom ?? { bytes: request.routeOptions.bodyLimit ?? JSON_LIMIT, code: 'invalid_request' };
}

export function tooLarge(limit: BodyLimit): CoreError {
  if (limit.message) return new CoreError(limit.code, limit.message);
  return limit.code === 'document_too_large'
    ? new CoreError(
        'document_too_large',
        `The document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB`,
      )
    : new CoreError('invalid_request', `The request body exceeds ${limit.bytes} bytes`);
}
