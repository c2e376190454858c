import { UploadedFiles } from '@esign/core';
import { streamJsonUploads } from '@esign/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** POST /templates and POST /documents/verify: the routes whose JSON carries documents in base64. */
const isUploadRoute = (request: FastifyRequest) => {
  const route = request.esign?.route;
  return route?.method === 'POST' && (route.path === '/templates' || route.path === '/documents/verify');
};

/**
 * The REST API's JSON parser: on the two upload routes a body over 1 MB is parsed as it arrives,
 * in a thread of its own, and each document (`documents[].file`, or verify's `file`) is decoded
 * to a temporary file of the request (streamJsonUploads). Every other body is read whole.
 */
export function registerJsonUploads(app: FastifyInstance, uploadDir: string): void {
  streamJsonUploads(app, {
    documentPaths: [['documents', '*', 'file'], ['file']],
    uploadsFor: (request) => {
      const state = request.esign;
      if (!state || !isUploadRoute(request)) return null;
      state.uploads ??= new UploadedFiles(uploadDir);
      return state.uploads;
    },
  });
}
