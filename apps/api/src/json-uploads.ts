import { UploadedFiles } from '@esign/core/uploads';
import { documentPathsOfMeta, streamJsonUploads } from '@esign/http';
import type { FastifyInstance } from 'fastify';
import type { RestRoute } from './routes.ts';

/**
 * The REST API's JSON parser: on the routes whose procedure's meta says where its input carries
 * documents (`request.documents`: POST /templates, POST /documents/verify), a body over 1 MB is
 * parsed as it arrives, in a thread of its own, and each document is decoded to a temporary file
 * of the request (streamJsonUploads). Every other body is read whole.
 */
export function registerJsonUploads(
  app: FastifyInstance,
  uploadDir: string,
  routes: readonly RestRoute[],
): void {
  streamJsonUploads(app, {
    documentPaths: documentPathsOfMeta(routes.map((r) => r.meta)),
    uploadsFor: (request) => {
      const state = request.esign;
      if (!state?.route.meta.request?.documents) return null;
      state.uploads ??= new UploadedFiles(uploadDir);
      return state.uploads;
    },
  });
}
