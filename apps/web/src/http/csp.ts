/**
 * The Content-Security-Policy of a page this app serves: its own scripts, styles and fonts, images
 * also from the public origin (signed file links) and from data:/blob: URLs, requests only to
 * itself, no <base>. The options are where the dashboard and the signing page differ.
 */
export function pageCsp(
  publicUrl: string,
  opts: {
    /** Radix positions the dashboard's popovers with inline styles. */
    inlineStyles: boolean;
    formAction: "'self'" | "'none'";
    /** adds `frame-ancestors 'none'` */
    noFraming: boolean;
  },
): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    opts.inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    `img-src 'self' data: blob: ${new URL(publicUrl).origin}`,
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    `form-action ${opts.formAction}`,
    ...(opts.noFraming ? ["frame-ancestors 'none'"] : []),
  ].join('; ');
}
