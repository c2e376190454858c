import { join } from 'node:path';
import { appRouter, MAX_DOCUMENT_BYTES, MAX_DOCUMENTS } from '@esign/core';
import { UploadedFiles } from '@esign/core/uploads';
import type { Db } from '@esign/db';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateRoute } from './authenticate-route.ts';
import { apiDocs } from './docs.ts';
import { claimIdempotencyKey } from './idempotency.ts';
import { registerJsonUploads } from './json-uploads.ts';
import { readMultipartBody } from './multipart.ts';
import { buildOpenApiDocument } from './openapi.ts';
import type { RestApiOptions } from './options.ts';
import { registerProcedureRoutes } from './procedure-routes.ts';
import { API_BASE } from './request-state.ts';
import { finishResponse, restErrorHandler } from './responses.ts';
import { restRoutes } from './routes.ts';

export { API_BASE } from './request-state.ts';

/**
 * The `preHandler` hook: a multipart upload becomes the procedure's JSON body, and an idempotent
 * call claims its key (or gets the stored response).
 */
function prepareBody(db: Db, uploadDir: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const state = request.esign;
    if (!state) return;
    if (request.isMultipart()) {
      state.uploads ??= new UploadedFiles(uploadDir);
      const answered = await readMultipartBody(request, reply, state.route, state.uploads);
      if (answered) return answered;
    }
    return claimIdempotencyKey(db, request, reply, state);
  };
}

/** The REST adapter: translates HTTP to procedure calls and core errors to the spec's envelope. */
export async function restApi(app: FastifyInstance, opts: RestApiOptions): Promise<void> {
  const routes = restRoutes(appRouter);
  const now = opts.now ?? (() => new Date());
  const openApiDocument = buildOpenApiDocument(opts.config);

  app.decorateRequest('esign', null);
  const uploadDir = join(opts.config.DATA_DIR, 'uploads');
  registerJsonUploads(app, uploadDir, routes);
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_DOCUMENT_BYTES, files: MAX_DOCUMENTS + 1 },
  });
  app.addHook('onRequest', authenticateRoute(routes, { db: opts.db, config: opts.config, now }));
  // Multipart files and long base64 `file` strings are streamed to DATA_DIR/uploads and removed
  // once the response is sent.
  app.addHook('preHandler', prepareBody(opts.db, uploadDir));
  const removeUploads = async (request: FastifyRequest) => {
    await request.esign?.uploads?.remove();
  };
  app.addHook('onResponse', removeUploads);
  app.addHook('onRequestAbort', removeUploads);
  app.addHook('onSend', finishResponse(opts.db));
  app.setErrorHandler(restErrorHandler(opts.db));

  app.get(`${API_BASE}/openapi.json`, async () => openApiDocument);
  await app.register(apiDocs, { document: openApiDocument });
  registerProcedureRoutes(app, opts, now);
}
