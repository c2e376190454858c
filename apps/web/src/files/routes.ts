import { readLinkedFile, toCoreError } from '@esign/core';
import type { FastifyInstance } from 'fastify';
import type { WebRouteOptions } from '../plugin.ts';

/** GET /files/{token}/{name}: signed, expiring links to documents and page images (no API key needed, cannot be guessed). */
export async function fileLinks(app: FastifyInstance, opts: WebRouteOptions): Promise<void> {
  app.get<{ Params: { token: string; name: string } }>('/files/:token/:name', async (request, reply) => {
    try {
      const file = await readLinkedFile(opts.deps, opts.config, request.params.token, opts.now());
      // A view of the bytes, not a copy (a sealed document may be 25 MB).
      const body = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
      return reply
        .type(file.contentType)
        .header('Cache-Control', 'private, max-age=3600')
        .header('Content-Disposition', `inline; filename="${file.fileName.replace(/[^\w. -]/g, '_')}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(body);
    } catch (err) {
      const core = toCoreError(err);
      if (core.code === 'internal_error') request.log.error({ err }, 'file link failed');
      if (core.details.retryAfterSeconds !== undefined)
        reply.header('Retry-After', String(core.details.retryAfterSeconds));
      return reply.code(core.status).send({ error: { code: core.code, message: core.message } });
    }
  });
}
