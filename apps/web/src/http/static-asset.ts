import type { FastifyReply, FastifyRequest } from 'fastify';

/** A built file served under a content-hashed name, kept in memory plain and gzipped. */
export interface StaticAsset {
  contentType: string;
  body: Buffer;
  gzip: Buffer;
}

/**
 * Answers a request for a hashed asset: 404 with the API's error shape when there is none, else
 * the file cached for a year (its name changes when it does), gzipped when the client takes it.
 */
export function sendStaticAsset(
  request: FastifyRequest<{ Params: { file: string } }>,
  reply: FastifyReply,
  asset: StaticAsset | undefined,
): FastifyReply {
  if (!asset) {
    return reply.code(404).send({ error: { code: 'not_found', message: `No asset ${request.params.file}` } });
  }
  const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  reply
    .type(asset.contentType)
    .header('Cache-Control', 'public, max-age=31536000, immutable')
    .header('Vary', 'Accept-Encoding')
    .header('X-Content-Type-Options', 'nosniff');
  if (gzip) reply.header('Content-Encoding', 'gzip');
  return reply.send(gzip ? asset.gzip : asset.body);
}
