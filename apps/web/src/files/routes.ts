import { toCoreError } from '@esign/core';
import { readLinkedFile, resolveShortFileLink } from '@esign/core/endpoints';
import type { FastifyInstance } from 'fastify';
import type { WebRouteOptions } from '../options.ts';

/** GET /files/{token}/{name}: signed, expiring links to documents and page images (no API key needed, cannot be guessed). */
export async function fileLinks(app: FastifyInstance, opts: WebRouteOptions): Promise<void> {
  app.get<{ Params: { token: string; name: string } }>('/files/:token/:name', async (request, reply) => {
    try {
      const file = await readLinkedFile(
        { db: opts.db, deps: opts.deps, config: opts.config, now: opts.now },
        { token: request.params.token, fileName: request.params.name },
      );
      // A stored document is streamed from storage at the client's pace (a sealed document may be
      // 25 MB); a page image is a view of its bytes, not a copy.
      const body =
        'stream' in file
          ? file.stream.body
          : Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
      if ('stream' in file) reply.header('Content-Length', String(file.stream.size));
      return reply
        .type(file.contentType)
        .header('Cache-Control', 'private, max-age=3600')
        .header('Content-Disposition', contentDisposition(file.fileName))
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

  // GET /d/{token}: the short link of a sealed file that a completion SMS carries (issue 42.2),
  // answered with a fresh signed file link.
  app.get<{ Params: { token: string } }>('/d/:token', async (request, reply) => {
    try {
      const url = await resolveShortFileLink(
        { db: opts.db, config: opts.config, now: opts.now },
        request.params.token,
      );
      return reply
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'no-referrer')
        .redirect(url, 302);
    } catch (err) {
      const core = toCoreError(err);
      if (core.code === 'internal_error') request.log.error({ err }, 'short file link failed');
      return reply.code(core.status).send({ error: { code: core.code, message: core.message } });
    }
  });
}

/**
 * `inline` with the file's name: an ASCII fallback, and the name as it is (a German or Arabic
 * title, issue 42.6) in RFC 6266 / RFC 8187 `filename*` form, which every current browser reads.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\w. -]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
