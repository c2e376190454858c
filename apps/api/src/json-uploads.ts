import type { Readable } from 'node:stream';
import { MAX_DOCUMENT_BYTES, UploadedFiles } from '@esign/core';
import { bodyLimitOf, jsonBody, parseJsonStreaming } from '@esign/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Bodies larger than this, on the upload routes, are read as they arrive. */
export const STREAM_JSON_FROM_BYTES = 1024 * 1024;
/** A `file` string this long is decoded to disk while it is read. */
const DIVERT_FROM_CHARS = 64 * 1024;

/** POST /templates and POST /documents/verify: the routes whose JSON carries documents in base64. */
const isUploadRoute = (request: FastifyRequest) => {
  const route = request.esign?.route;
  return route?.method === 'POST' && (route.path === '/templates' || route.path === '/documents/verify');
};

/**
 * The REST API's JSON parser. On the two upload routes a body over 1 MB (or of unknown length) is
 * parsed as it arrives, in a thread of its own, and each long `file` string (a document in
 * base64, or a data: URI) is decoded straight to a temporary file, as multipart files are: its
 * value becomes the file's reference (services/uploads.ts). Ten 25 MB documents in one JSON body (333 MB) were held as the
 * body, its text and the parsed strings; now as none of them (issue 18). Every other body is read
 * whole, as before. A `file` that is an https:// URL is left as it is.
 */
export function registerJsonUploads(app: FastifyInstance, uploadDir: string): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', async (request: FastifyRequest, payload: Readable) => {
    const state = request.esign;
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    if (!state || !isUploadRoute(request) || declared <= STREAM_JSON_FROM_BYTES)
      return jsonBody(request, payload);
    state.uploads ??= new UploadedFiles(uploadDir);
    return parseJsonStreaming(payload, {
      limit: bodyLimitOf(request),
      contentLength: request.headers['content-length'],
      uploads: state.uploads,
      divert: { key: 'file', from: DIVERT_FROM_CHARS, keep: /^\s*https?:/i, maxBytes: MAX_DOCUMENT_BYTES },
    });
  });
}
