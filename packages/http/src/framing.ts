import type { FastifyInstance } from 'fastify';

/** The policy of every response whose route sets none: no site may frame it (ASVS 14.4.7). */
const NO_FRAMING_CSP = "frame-ancestors 'none'";

/**
 * Clickjacking defence for every response of the process: one without a Content-Security-Policy
 * gets `frame-ancestors 'none'`, and one whose policy names no allowed ancestor also gets
 * `X-Frame-Options: DENY` for browsers without CSP. A page that may be framed says so in its own
 * policy (the embeddable signing page `/e/{token}` lists the account's allowed origins) and is
 * left as it is.
 */
export function denyFramingByDefault(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    const csp = reply.getHeader('content-security-policy');
    if (csp === undefined) reply.header('Content-Security-Policy', NO_FRAMING_CSP);
    const ancestors = /frame-ancestors ([^;]*)/.exec(String(csp ?? NO_FRAMING_CSP))?.[1]?.trim();
    if (
      (ancestors === undefined || ancestors === "'none'") &&
      reply.getHeader('x-frame-options') === undefined
    )
      reply.header('X-Frame-Options', 'DENY');
  });
}
