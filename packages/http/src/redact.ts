import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';

/** Query parameters that may carry a credential (tRPC's `input` holds the signing token). */
const SECRET_QUERY = new Set([
  'input',
  'token',
  'code',
  'access_token',
  'refresh_token',
  'key',
  'secret',
  'password',
  // Single sign-on's answer (/sso/callback, issue 45): the sign-in's one-time state.
  'state',
]);

/**
 * A URL fit for logs: the signing token of `/s/<token>`, the embedded signing page's `/e/<token>`, the public link token of `/l/<token>`, the signed payload of `/files/<token>/…`, the short file link `/d/<token>`
 * and credential-bearing query parameters are replaced; anyone holding them could sign or read.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q))
    .replace(/^\/s\/(?!assets\/)[^/]+/, `/s/${REDACTED}`)
    .replace(/^\/e\/[^/]+/, `/e/${REDACTED}`)
    .replace(/^\/l\/[^/]+/, `/l/${REDACTED}`)
    .replace(/^\/files\/[^/]+/, `/files/${REDACTED}`)
    .replace(/^\/d\/[^/]+/, `/d/${REDACTED}`);
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const raw = eq === -1 ? part : part.slice(0, eq);
      let name = raw;
      try {
        name = decodeURIComponent(raw.replace(/\+/g, ' '));
      } catch {
        // keep the raw name
      }
      return SECRET_QUERY.has(name.toLowerCase()) ? `${raw}=${REDACTED}` : part;
    })
    .join('&');
  return `${path}?${query}`;
}

/** pino serializer for `req` (Fastify's fields, with the URL redacted). */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}
