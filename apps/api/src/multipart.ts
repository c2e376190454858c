import { CoreError, MAX_DOCUMENT_BYTES, MAX_DOCUMENTS, toCoreError } from '@esign/core';
import type { UploadedFiles } from '@esign/core/uploads';
import { sendError } from '@esign/http';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RestRoute } from './routes.ts';

/** The text parts of POST /templates as multipart/form-data (the OpenAPI document lists them). */
export const TEMPLATE_TEXT_FIELDS = new Set(['name', 'external_id', 'folder', 'password']);

/** Streams one file part to disk (services/uploads.ts): its reference goes in the JSON input. */
const saveFile = (part: MultipartFile, uploads: UploadedFiles) =>
  uploads.save(part.file, () => part.file.truncated);

/**
 * POST /templates as multipart/form-data: `documents[]` files plus text fields, translated into
 * the JSON input the procedure takes. Sizes are enforced while streaming each file to disk.
 */
async function multipartTemplateBody(
  request: FastifyRequest,
  uploads: UploadedFiles,
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  const documents: { name: string; file: string }[] = [];
  try {
    for await (const part of request.parts({
      limits: { fileSize: MAX_DOCUMENT_BYTES, files: MAX_DOCUMENTS + 1, fields: 20, fieldSize: 1024 * 1024 },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'documents[]' && part.fieldname !== 'documents') {
          part.file.resume();
          throw new CoreError(
            'invalid_parameter',
            `Unexpected file field "${part.fieldname}"; send files as documents[]`,
          );
        }
        if (documents.length >= MAX_DOCUMENTS) {
          part.file.resume();
          throw new CoreError('too_many_documents', `A template has at most ${MAX_DOCUMENTS} documents`);
        }
        documents.push({
          name: part.filename.replace(/\.[^.]+$/, '') || `Document ${documents.length + 1}`,
          file: await saveFile(part, uploads),
        });
      } else if (part.fieldname === 'fields') {
        throw new CoreError('invalid_parameter', '`fields` is accepted in JSON requests only');
      } else if (TEMPLATE_TEXT_FIELDS.has(part.fieldname)) {
        body[part.fieldname] = String(part.value);
      } else {
        throw new CoreError('invalid_parameter', `Unexpected form field "${part.fieldname}"`);
      }
    }
  } catch (err) {
    if (err instanceof CoreError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new CoreError('document_too_large', 'A document is larger than 25 MB');
    if (code === 'FST_FILES_LIMIT')
      throw new CoreError('too_many_documents', `A template has at most ${MAX_DOCUMENTS} documents`);
    throw new CoreError('invalid_request', 'The multipart/form-data body could not be read');
  }
  if (documents.length) body.documents = documents;
  return body;
}

/**
 * POST /documents/verify as multipart/form-data: one `file` part, translated into `{ file }` (its
 * reference once on disk). The 25 MB limit is enforced while streaming.
 */
async function multipartVerifyBody(
  request: FastifyRequest,
  uploads: UploadedFiles,
): Promise<Record<string, unknown>> {
  let file: string | undefined;
  try {
    for await (const part of request.parts({
      limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 5 },
    })) {
      if (part.type !== 'file' || part.fieldname !== 'file') {
        if (part.type === 'file') part.file.resume();
        throw new CoreError(
          'invalid_parameter',
          `Unexpected form field "${part.fieldname}"; send the PDF as file`,
        );
      }
      file = await saveFile(part, uploads);
    }
  } catch (err) {
    if (err instanceof CoreError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new CoreError('document_too_large', 'The file is larger than 25 MB');
    if (code === 'FST_FILES_LIMIT')
      throw new CoreError('invalid_parameter', 'Send exactly one file part named file');
    if (code === 'FST_FIELDS_LIMIT') throw new CoreError('invalid_parameter', 'Send only the file part');
    throw new CoreError('invalid_request', 'The multipart/form-data body could not be read');
  }
  return file === undefined ? {} : { file };
}

/**
 * Turns a multipart request into the JSON body its procedure takes (POST /templates and POST
 * /documents/verify only); answers with the error and returns the reply when it cannot.
 */
export async function readMultipartBody(
  request: FastifyRequest,
  reply: FastifyReply,
  route: RestRoute,
  uploads: UploadedFiles,
) {
  if (!route.meta.openapi?.contentTypes?.includes('multipart/form-data')) {
    return sendError(
      reply,
      new CoreError(
        'invalid_request',
        'multipart/form-data is accepted by POST /templates and POST /documents/verify only; send JSON',
      ),
    );
  }
  try {
    request.body =
      route.path === '/documents/verify'
        ? await multipartVerifyBody(request, uploads)
        : await multipartTemplateBody(request, uploads);
  } catch (err) {
    return sendError(reply, toCoreError(err));
  }
  request.headers['content-type'] = 'application/json';
}
