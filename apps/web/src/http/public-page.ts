import type { FastifyReply } from 'fastify';

/**
 * Sends a server-rendered page whose address carries a token (a public signing link `/l/…`, a CC's
 * link `/cc/…`): inline styles only, never cached, indexed or framed. A page with forms posts them
 * to itself and sends its own origin as Referer (with `no-referrer` browsers send `Origin: null` on
 * those posts); a page without forms allows none and sends no Referer at all.
 */
export function sendPublicPage(reply: FastifyReply, page: { status: number; body: string; forms: boolean }) {
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    // The layout's empty icon (`<link rel="icon" href="data:,">`) keeps browsers from asking for
    // /favicon.ico; without this its load is a CSP error in the console (issue 42.7).
    'img-src data:',
    `form-action ${page.forms ? "'self'" : "'none'"}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return reply
    .code(page.status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', page.forms ? 'same-origin' : 'no-referrer')
    .header('X-Robots-Tag', 'noindex, nofollow')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', csp)
    .send(page.body);
}
