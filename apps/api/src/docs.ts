import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const DOCS_PATH = '/api/docs';
const DOCS_SCRIPT_PATH = `${DOCS_PATH}/scalar.js`;

/** Scalar's self-contained browser bundle, installed with `@scalar/api-reference` (no CDN). */
function referenceBundlePath(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return join(dirname(entry), 'browser', 'standalone.js');
}

const escapeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * Everything the page loads comes from this process: the OpenAPI document and the bundle. Scalar's
 * calls home are off: telemetry, its hosted fonts, the AI agent, the MCP generator.
 */
function referencePage(document: Record<string, any>): { html: string; csp: string } {
  const title = `${document.info?.title ?? 'API'} reference`;
  const configuration = {
    url: '/api/v1/openapi.json',
    telemetry: false,
    withDefaultFonts: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    defaultOpenAllTags: false,
    documentDownloadType: 'json',
    metaData: { title },
  };
  const start = `Scalar.createApiReference('#reference', ${escapeJson(configuration)})`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title.replace(/[&<>"]/g, '')}</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif}</style>
</head>
<body>
<div id="reference"><noscript>This reference needs JavaScript; the document itself is
<a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript></div>
<script src="${DOCS_SCRIPT_PATH}"></script>
<script>${start}</script>
</body>
</html>
`;
  return { html, csp: docsCsp(start) };
}

/**
 * The page's Content-Security-Policy: scripts from this origin plus the one inline call (by its
 * hash); Scalar sets inline styles; requests only to this origin; no site may frame it.
 */
function docsCsp(inlineScript: string): string {
  const hash = createHash('sha256').update(inlineScript).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'self' 'sha256-${hash}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** GET /api/docs (the reference page) and its script, served from node_modules by this process. */
export async function apiDocs(app: FastifyInstance, opts: { document: Record<string, any> }): Promise<void> {
  const page = referencePage(opts.document);
  const bundlePath = referenceBundlePath();
  let bundle: Promise<Buffer> | null = null;
  app.get(DOCS_PATH, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', page.csp)
      .header('X-Content-Type-Options', 'nosniff')
      .send(page.html),
  );
  app.get(DOCS_SCRIPT_PATH, async (_request, reply) => {
    bundle ??= readFile(bundlePath);
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await bundle);
  });
}
