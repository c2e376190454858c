import { CoreError, MAX_DOCUMENT_BYTES, MAX_DOCUMENTS } from '@esign/core';
import { type Db, migrationsApplied } from '@esign/db';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { fromFastifyError, sendError } from './errors.ts';

export const JSON_LIMIT = 1024 * 1024;
/** POST /templates carries up to 10 base64 documents of 25 MB each. */
export const TEMPLATE_UPLOAD_LIMIT = MAX_DOCUMENTS * Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + JSON_LIMIT;
/** POST /documents/verify carries one base64 PDF of 25 MB at most. */
export const VERIFY_UPLOAD_LIMIT = Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 64 * 1024;

/** A Fastify instance with what every process serves: health, readiness, JSON 404s, request ids. */
export function createHttpApp(opts: { db: Db; logger: Logger }): FastifyInstance {
  const app = Fastify({
    loggerInstance: opts.logger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
    },
    requestIdHeader: false,
    trustProxy: true,
    bodyLimit: 1024 * 1024,
    // Signed file links carry their payload in the path.
    routerOptions: { maxParamLength: 2048 },
  }) as unknown as FastifyInstance;
  // JSON bodies: invalid JSON is 400 invalid_json, an empty body is no body, and the size limit
  // is enforced while reading (document uploads get a larger one).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: TEMPLATE_UPLOAD_LIMIT },
    (request, body: Buffer, done) => {
      const path = request.url.split('?')[0];
      const verify = request.method === 'POST' && path === '/api/v1/documents/verify';
      const limit =
        // MCP tool calls carry the same documents as POST /templates (create_template, verify_document).
        request.method === 'POST' && (path === '/api/v1/templates' || path === '/mcp')
          ? TEMPLATE_UPLOAD_LIMIT
          : verify
            ? VERIFY_UPLOAD_LIMIT
            : JSON_LIMIT;
      if (body.length > limit && verify)
        return done(new CoreError('document_too_large', 'The document is larger than 25 MB'));
      if (body.length > limit)
        return done(new CoreError('invalid_request', `The request body exceeds ${limit} bytes`));
      if (body.length === 0 || body.toString('utf8').trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(body.toString('utf8')));
      } catch {
        done(new CoreError('invalid_json', 'The request body is not valid JSON'));
      }
    },
  );
  app.setErrorHandler((err, request, reply) => {
    const core = fromFastifyError(err as { code?: string; statusCode?: number; message: string });
    if (core.code === 'internal_error') request.log.error({ err }, 'unhandled error');
    return sendError(reply, core);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(opts.db);
      if (!(await migrationsApplied(opts.db))) return reply.code(503).send({ status: 'migrations pending' });
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new CoreError('not_found', `No endpoint matches ${request.method} ${request.url.split('?')[0]}`),
    ),
  );
  return app;
}
