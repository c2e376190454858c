import { appRouter, ERROR_STATUS } from '@esign/core';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { restRoutes } from './routes.ts';

type Json = Record<string, any>;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid JSON',
  401: 'Missing, malformed, revoked or expired API key',
  402: 'Not enough credits',
  403: 'Read-only key or insufficient access',
  404: 'Not found (or another account’s resource)',
  409: 'Same Idempotency-Key still running',
  422: 'Invalid request; see error.code',
  429: 'Rate limited; see Retry-After',
  500: 'Internal error; retry',
  502: 'Payment provider error',
};

const rateHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed per one-minute window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
};

/**
 * The OpenAPI 3.1 document generated from the procedures, then post-processed so every error
 * response shows our envelope, rate-limit headers and the Idempotency-Key header where it applies.
 */
export function buildOpenApiDocument(publicUrl: string): Json {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'E-Signature Service API',
    version: '1.0.0',
    baseUrl: `${publicUrl}/api/v1`,
    description:
      'Templates, signature requests, signers, credits and document verification. Authenticate with `Authorization: Bearer svc_live_...` (or `svc_test_...`). Every PATCH also accepts PUT.',
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: svc_live_... or svc_test_...' },
    },
  }) as Json;
  doc.components ??= {};
  doc.components.schemas ??= {};
  doc.components.schemas.Error = {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: {
            type: 'string',
            enum: Object.keys(ERROR_STATUS),
            description: 'Stable, machine-branchable',
          },
          message: { type: 'string', description: 'Human-readable; may change' },
        },
      },
    },
  };
  const statuses = [...new Set(Object.values(ERROR_STATUS))].sort();
  for (const route of restRoutes(appRouter)) {
    const pathKey = route.path;
    const op = doc.paths?.[pathKey]?.[route.method.toLowerCase()] as Json | undefined;
    if (!op) continue;
    const success = route.meta.successStatus ?? 200;
    const responses: Json = {};
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (Number(status) < 400) responses[String(Number(status) === 200 ? success : status)] = response;
    }
    for (const [, response] of Object.entries(responses)) {
      (response as Json).headers = { ...((response as Json).headers ?? {}), ...rateHeaders };
    }
    for (const status of statuses) {
      responses[String(status)] = {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    op.responses = responses;
    if (route.meta.idempotent) {
      op.parameters = [
        ...(op.parameters ?? []),
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Up to 255 characters (a UUID v4 is suggested); a retry within 24 h replays the first success',
          schema: { type: 'string', maxLength: 255 },
        },
      ];
    }
    if (route.method === 'PATCH')
      op.description = `${op.description ?? ''}\n\nPUT is accepted as an alias.`.trim();
  }
  return doc;
}

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A readable, dependency-free reference page rendered from the OpenAPI document. */
export function renderReferencePage(doc: Json): string {
  const sections: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops as Json)) {
      const o = op as Json;
      const params = (o.parameters ?? []) as Json[];
      const body = o.requestBody?.content?.['application/json']?.schema;
      const ok = Object.entries(o.responses ?? {}).find(([s]) => Number(s) < 400);
      sections.push(`<section id="${esc(o.operationId)}">
<h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p>${esc(o.summary ?? '')}</p>${o.description ? `<p>${esc(o.description)}</p>` : ''}
${
  params.length
    ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr>${params
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${esc(JSON.stringify(p.schema))}</code></td></tr>`,
        )
        .join('')}</table>`
    : ''
}
${body ? `<h4>Request body</h4><pre>${esc(JSON.stringify(body, null, 2))}</pre>` : ''}
${ok ? `<h4>Response ${esc(ok[0])}</h4><pre>${esc(JSON.stringify((ok[1] as Json).content?.['application/json']?.schema ?? {}, null, 2))}</pre>` : ''}
<p class="errors">Errors: ${Object.keys(o.responses ?? {})
        .filter((s) => Number(s) >= 400)
        .join(', ')} with <code>{"error":{"code","message"}}</code></p>
</section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info?.title)} reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}pre{background:#f5f7f9;padding:.75rem;overflow:auto;font-size:13px}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left}.m{font:600 13px monospace;padding:.1rem .4rem;border-radius:4px;background:#eef}.get{background:#e3f6e8}.post{background:#e6f0ff}.patch{background:#fff4d6}.delete{background:#ffe3e3}section{border-top:1px solid #d0d7de;margin-top:1.5rem}</style></head>
<body><h1>${esc(doc.info?.title)} <small>v${esc(doc.info?.version)}</small></h1><p>${esc(doc.info?.description)}</p>
<p>Base URL: <code>${esc(doc.servers?.[0]?.url)}</code> · Machine-readable: <a href="/api/v1/openapi.json">openapi.json</a></p>
${sections.join('\n')}</body></html>`;
}
