import { appRouter, type Config, ERROR_STATUS, procedureMeta, SUBSCRIBABLE_EVENT_TYPES } from '@esign/core';
import { EVENT_TYPES } from '@esign/domain';
import {
  DEFAULT_RETRY_BASE_SECONDS,
  DEFAULT_SERVICE_NAME,
  DEFAULT_SUBSCRIBED_EVENT_TYPES,
  MAX_ATTEMPTS,
  retrySchedule,
  SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_TIMEOUT_MS,
  webhookHeaderNames,
} from '@esign/webhooks';
import { restRoutes } from './routes.ts';

type Json = Record<string, any>;
type DocConfig = Pick<Config, 'PUBLIC_URL'> & Partial<Config>;

/** When each event is sent (the event types themselves come from the code's list). */
const EVENT_TEXT: Record<(typeof EVENT_TYPES)[number], string> = {
  'signature_request.created': 'a signature request was sent (POST /signature_requests)',
  'signature_request.completed': 'every signer has signed; the sealed documents are ready',
  'signature_request.canceled': 'a request was canceled',
  'signer.viewed': 'a signer opened the document',
  'signer.started': 'a signer started filling in fields',
  'signer.signed': 'a signer finished signing',
  'signer.declined': 'a signer declined',
  'template.created': 'a template was created (POST /templates, POST /templates/{id}/duplicate)',
  'template.updated': 'a template was changed (PATCH /templates/{id})',
  'template.archived': 'a template was archived (first time only)',
  'webhook.test': 'sent on request (`esign webhook test`) whatever the endpoint subscribes to; never retried',
};

/** How to react to each status (the spec's retry guidance). */
const RETRY: Record<number, string> = {
  409: 'retry with the same key after a short wait',
  429: 'retry after `Retry-After` seconds',
  500: 'retry (same `Idempotency-Key` for POSTs)',
  502: 'retry later',
};

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

function errorTable(): string {
  const rows = Object.entries(ERROR_STATUS)
    .sort(([, a], [, b]) => a - b)
    .map(([code, status]) => `| ${status} | \`${code}\` | ${RETRY[status] ?? 'fix the request first'} |`);
  return ['| Status | Code | Retry? |', '| --- | --- | --- |', ...rows].join('\n');
}

function webhookSection(config: DocConfig): string {
  const names = webhookHeaderNames(config.WEBHOOK_SERVICE_NAME ?? DEFAULT_SERVICE_NAME);
  const base = config.WEBHOOK_RETRY_BASE_SECONDS ?? DEFAULT_RETRY_BASE_SECONDS;
  const timeout = config.WEBHOOK_TIMEOUT_SECONDS ?? WEBHOOK_TIMEOUT_MS / 1000;
  const minutes = retrySchedule(base).map((s) => (s % 60 === 0 ? `${s / 60} min` : `${s} s`));
  const events = EVENT_TYPES.map(
    (t) =>
      `| \`${t}\` | ${cell(EVENT_TEXT[t])} | ${
        SUBSCRIBABLE_EVENT_TYPES.includes(t)
          ? (DEFAULT_SUBSCRIBED_EVENT_TYPES as readonly string[]).includes(t)
            ? 'yes, on by default'
            : 'yes'
          : 'no'
      } |`,
  );
  return `## Webhooks

Register an endpoint with \`esign webhook create --email E --url https://... [--events a,b]\`; it
prints the endpoint's signing secret once. Each event is a \`POST\` of
\`{"id","type","created_at","data"}\` where \`data\` has the shape of the matching API response at
delivery time (see **Webhooks** in the sidebar for each event's body).

| Event | Sent when | Subscribable |
| --- | --- | --- |
${events.join('\n')}

Headers: \`${names.event}\` (the event type), \`${names.delivery}\` (this attempt's id) and
\`${names.signature}: t=<unix seconds>,v1=<hex>\`, plus the endpoint's custom headers.

**Verify**: compute HMAC-SHA256 of \`<t>.<raw body>\` with the signing secret, hex-encode it, compare
it with \`v1\` in constant time, and reject a \`t\` older than ${SIGNATURE_TOLERANCE_SECONDS} seconds.

**Answer** with any 2xx within ${timeout} seconds. Anything else is retried after
${minutes.join(', ')} (${MAX_ATTEMPTS} attempts in all); use \`id\` to drop duplicates. URLs must be
public \`http(s)\` addresses.`;
}

function mcpSection(config: DocConfig): string {
  const rows: string[] = [];
  for (const { path, meta } of procedureMeta(appRouter)) {
    if (!meta.mcp) continue;
    const rest = meta.openapi ? `\`${meta.openapi.method} ${meta.openapi.path}\`` : `(\`${path}\`)`;
    rows.push(`| \`${meta.mcp.tool}\` | ${meta.mcp.scope} | ${rest} | ${cell(meta.mcp.description)} |`);
  }
  return `## MCP

AI assistants reach the same operations as tools at \`${config.PUBLIC_URL}/mcp\` (MCP over
Streamable HTTP, \`POST\` only), authenticated with an API key in the same
\`Authorization: Bearer\` header. Each tool runs the matching REST operation with the same rules,
credits and errors; a failed call returns \`isError: true\` with the error \`code\` and \`message\`.
Read-only keys see only the \`read\` tools.

| Tool | Access | REST | What it does |
| --- | --- | --- | --- |
${rows.join('\n')}`;
}

/** The guide shown above the operations: authentication, errors, webhooks, MCP. */
export function referenceMarkdown(config: DocConfig): string {
  return `Templates, signature requests, signers, credits and document verification, as JSON over
HTTPS. Base URL: \`${config.PUBLIC_URL}/api/v1\`; the machine-readable document is
[openapi.json](${config.PUBLIC_URL}/api/v1/openapi.json).

## Authentication

Send an API key in every request: \`Authorization: Bearer svc_live_...\` (live data) or
\`svc_test_...\` (test data). Operators create keys with \`esign key create\`. A read-only key may
call every GET, \`POST /documents/verify\` and \`POST /feedback\`; other writes return
\`403 read_only_api_key\`. Each key may make ${config.RATE_LIMIT_PER_MINUTE ?? 300} requests per
minute; every response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`.

## Idempotency

Operations that list the \`Idempotency-Key\` header replay their first success for 24 hours when
retried with the same key and body (\`Idempotent-Replayed: true\`); the same key with another body
returns \`422 idempotency_key_reused\`, one still running \`409 idempotency_key_in_use\`. Failures
are not stored, so retrying after fixing the cause (buying credits, say) works with the same key.
A send's key commits with the request it makes: after a crash at any point, a retry with the key
gets that request, never a second one.

## Errors

Every error is \`{"error": {"code": "...", "message": "..."}}\`; branch on \`code\`, show
\`message\`. Each operation lists the statuses it can return.

${errorTable()}

${webhookSection(config)}

${mcpSection(config)}`;
}

const EVENT_OBJECT_PATH: Record<string, string> = {
  signature_request: '/signature_requests/{id}',
  signer: '/signers/{id}',
  template: '/templates/{id}',
};

/** OpenAPI 3.1 `webhooks`: one entry per event type, its body's `data` the matching GET's response. */
export function webhookOperations(doc: Json, config: DocConfig): Json {
  const names = webhookHeaderNames(config.WEBHOOK_SERVICE_NAME ?? DEFAULT_SERVICE_NAME);
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  const webhooks: Json = {};
  for (const type of EVENT_TYPES) {
    const path = EVENT_OBJECT_PATH[type.split('.')[0]!];
    const data = path
      ? doc.paths?.[path]?.get?.responses?.['200']?.content?.['application/json']?.schema
      : { type: 'object', description: 'The webhook endpoint (without its secret or custom headers)' };
    webhooks[type] = {
      post: {
        operationId: `webhook_${type.replace('.', '_')}`,
        summary: type,
        description: `Sent when ${EVENT_TEXT[type]}.`,
        parameters: [
          header(names.event, `\`${type}\``),
          header(names.delivery, 'This delivery attempt’s id'),
          header(names.signature, '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`'),
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'type', 'created_at', 'data'],
                properties: {
                  id: { type: 'string', format: 'uuid', description: 'Same on every retry: drop duplicates' },
                  type: { type: 'string', const: type },
                  created_at: { type: 'string', format: 'date-time' },
                  data: data ?? { type: 'object' },
                },
              },
            },
          },
        },
        responses: { '2XX': { description: 'Received; anything else (or no answer in time) is retried' } },
      },
    };
  }
  // Keep the REST routes list honest: every documented webhook object has a GET to take its shape from.
  for (const path of Object.values(EVENT_OBJECT_PATH))
    if (!restRoutes(appRouter).some((r) => r.method === 'GET' && r.path === path))
      throw new Error(`webhook data: no GET ${path}`);
  return webhooks;
}
