import type { Config } from '@esign/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { webBuild } from '../built.ts';
import { pageCsp } from '../http/csp.ts';
import { sendStaticAsset } from '../http/static-asset.ts';

/** Addresses the dashboard's client-side router answers (README: `/` is the dashboard). */
const DASHBOARD_PATHS = [
  '/',
  '/login',
  '/login/link',
  '/signup',
  '/reset-password',
  '/invite',
  '/templates',
  '/templates/:id/edit',
  '/send',
  '/requests',
  '/requests/:id',
  '/api-keys',
  '/connected-apps',
  '/webhooks',
  '/team',
  '/account',
  // The spec's `purchase_url`: the Billing page is where people buy credit packs.
  '/billing',
  // More ways to send (docs/sending.md).
  '/templates/:id/link',
  '/bulk',
  '/embed',
  // The public verify page (issue 30): no session needed.
  '/verify',
] as const;

/** Prefixes whose every answer is JSON (or a file), whoever asks: the API, MCP, tRPC, OAuth, files. */
const MACHINE_PREFIXES = [
  '/api/',
  '/mcp',
  '/trpc',
  '/oauth/',
  '/.well-known/',
  '/files/',
  '/d/',
  '/app/assets/',
];

/** A browser loading a page: it asks for HTML, at an address that is not one of the API's. */
function isPageNavigation(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  if (MACHINE_PREFIXES.some((prefix) => path.startsWith(prefix))) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Serves the dashboard from the same process: the page at every dashboard address, its hashed
 * assets under /app/assets/, from the build `pnpm build` made (src/built.ts), read at start.
 */
export async function dashboardPages(app: FastifyInstance, opts: { config: Config }): Promise<void> {
  const { index, assets } = (await webBuild()).dashboard;
  const csp = pageCsp(opts.config.PUBLIC_URL, { inlineStyles: true, formAction: "'self'", noFraming: true });

  const page = (reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', csp)
      .header('X-Frame-Options', 'DENY')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'same-origin')
      .send(index);
  for (const path of DASHBOARD_PATHS) app.get(path, (_req, reply) => page(reply));
  // Any other address a browser navigates to gets the dashboard's own not-found page (status 404);
  // API clients, and every address under the API prefixes, keep the JSON error envelope.
  app.get('/*', (request, reply) =>
    isPageNavigation(request) ? page(reply.code(404)) : reply.callNotFound(),
  );

  app.get<{ Params: { file: string } }>('/app/assets/:file', async (request, reply) =>
    sendStaticAsset(request, reply, assets.get(request.params.file)),
  );
}
