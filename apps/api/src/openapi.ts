import {
  appRouter,
  type Config,
  ERROR_STATUS,
  type ErrorCode,
  errorStatus,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS,
} from '@esign/core';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { TEMPLATE_TEXT_FIELDS } from './multipart.ts';
import { referenceMarkdown, webhookOperations } from './reference.ts';
import { type RestRoute, restRoutes } from './routes.ts';

type Json = Record<string, any>;

/** What each status means, for its response's description (the codes follow). */
const STATUS_TEXT: Record<number, string> = {
  400: 'The body is not valid JSON',
  401: 'Missing, malformed, revoked or expired API key',
  402: 'Not enough credits',
  403: 'Read-only key, or the key’s user may not make changes',
  404: 'Not found (or another account’s resource)',
  409: 'The same Idempotency-Key is still running',
  422: 'Invalid request',
  429: 'Rate limited; see Retry-After',
  500: 'Internal error; retry (with the same Idempotency-Key)',
  502: 'Payment provider error; nothing charged',
};

const rateHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed per one-minute window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
};

const hasInput = (op: Json) => Boolean(op.parameters?.length || op.requestBody);
const hasRequiredInput = (op: Json) =>
  Boolean(
    (op.parameters ?? []).some((p: Json) => p.required) ||
      op.requestBody?.content?.['application/json']?.schema?.required?.length,
  );

/**
 * The error codes one operation can return, derived from its procedure: authentication, rate limit
 * and internal errors everywhere; invalid JSON where there is a body; read-only keys on writes;
 * not found for path ids; idempotency conflicts where Idempotency-Key is accepted; validation
 * where there is input; and the codes its rules name in `meta.errors` (credits, payments, ...).
 */
function operationErrorCodes(route: RestRoute, op: Json): ErrorCode[] {
  const codes = new Set<ErrorCode>(['unauthenticated', 'api_key_expired', 'rate_limited', 'internal_error']);
  if (route.method !== 'GET') codes.add('invalid_json');
  if (route.meta.writeAccess) {
    codes.add('read_only_api_key');
    codes.add('forbidden');
  }
  if (/\{\w+\}/.test(route.path)) codes.add('not_found');
  if (route.meta.idempotent) {
    codes.add('idempotency_key_in_use');
    codes.add('idempotency_key_reused');
  }
  if (hasRequiredInput(op)) codes.add('missing_parameter');
  if (hasInput(op)) codes.add('invalid_parameter');
  for (const code of Object.values(route.meta.inputErrors ?? {})) codes.add(code);
  for (const code of route.meta.errors ?? []) codes.add(code);
  return [...codes].sort((a, b) => errorStatus(a) - errorStatus(b));
}

function errorResponses(codes: ErrorCode[]): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(errorStatus(code), [...(byStatus.get(errorStatus(code)) ?? []), code]);
  const responses: Json = {};
  for (const [status, list] of byStatus) {
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${list.map((c) => `\`${c}\``).join(', ')}`,
      ...(status === 429 ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } } : {}),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: { error: { code: list[0], message: STATUS_TEXT[status] ?? 'Error' } },
        },
      },
    };
  }
  return responses;
}

const binary = (description: string) => ({
  type: 'string',
  format: 'binary',
  contentMediaType: 'application/octet-stream',
  description,
});

/** The multipart/form-data forms the REST adapter reads (multipart.ts), not the JSON body. */
function fixMultipart(doc: Json): void {
  const templates = doc.paths?.['/templates']?.post?.requestBody?.content;
  if (templates) {
    const json = templates['application/json'].schema as Json;
    json.required = [...new Set([...(json.required ?? []), 'documents'])];
    const text: Json = {};
    for (const name of TEMPLATE_TEXT_FIELDS) text[name] = json.properties[name];
    templates['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: ['documents[]'],
        properties: {
          ...text,
          'documents[]': {
            type: 'array',
            minItems: 1,
            maxItems: MAX_DOCUMENTS,
            description: `1..${MAX_DOCUMENTS} files, PDF or image, ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB each; \`fields\` is accepted in JSON requests only`,
            items: binary('A PDF or image file'),
          },
        },
      },
      encoding: { 'documents[]': { contentType: 'application/pdf, image/*' } },
    };
  }
  const verify = doc.paths?.['/documents/verify']?.post?.requestBody?.content;
  if (verify) {
    verify['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: ['file'],
        properties: { file: binary(`The PDF to check (${MAX_DOCUMENT_BYTES / 1024 / 1024} MB at most)`) },
      },
      encoding: { file: { contentType: 'application/pdf' } },
    };
  }
}

/**
 * The OpenAPI 3.1 document generated from the procedures, then post-processed: each operation's
 * own error statuses with our envelope, rate-limit headers, the Idempotency-Key header where it
 * applies, the real multipart forms, the webhooks, and a Markdown guide (errors, webhooks, MCP).
 */
export function buildOpenApiDocument(
  configOrUrl: string | (Pick<Config, 'PUBLIC_URL'> & Partial<Config>),
): Json {
  const config = typeof configOrUrl === 'string' ? { PUBLIC_URL: configOrUrl } : configOrUrl;
  const doc = generateOpenApiDocument(appRouter, {
    title: 'E-Signature Service API',
    version: '1.0.0',
    baseUrl: `${config.PUBLIC_URL}/api/v1`,
    description: referenceMarkdown(config),
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
  for (const route of restRoutes(appRouter)) {
    const op = doc.paths?.[route.path]?.[route.method.toLowerCase()] as Json | undefined;
    if (!op) continue;
    const success = route.meta.successStatus ?? 200;
    const responses: Json = {};
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (Number(status) < 400) responses[String(Number(status) === 200 ? success : status)] = response;
    }
    for (const response of Object.values(responses)) {
      (response as Json).headers = { ...((response as Json).headers ?? {}), ...rateHeaders };
    }
    op.responses = { ...responses, ...errorResponses(operationErrorCodes(route, op)) };
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
  doc.security = [{ bearerAuth: [] }];
  doc.info.license = { name: 'MIT', identifier: 'MIT' };
  fixMultipart(doc);
  doc.webhooks = webhookOperations(doc, config);
  withoutSafeIntegerBounds(doc);
  withoutUnusedSchemas(doc);
  return doc;
}

/**
 * zod writes `z.number().int()` with JavaScript's safe-integer bounds, which say nothing to a
 * client and make every generated example `-9007199254740991`: left out.
 */
function withoutSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) withoutSafeIntegerBounds(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  for (const value of Object.values(schema)) withoutSafeIntegerBounds(value);
}

/** Component schemas no operation, webhook or other component refers to (the generator's error.* ones). */
function withoutUnusedSchemas(doc: Json): void {
  const schemas = (doc.components?.schemas ?? {}) as Json;
  for (;;) {
    const text = JSON.stringify({ ...doc, components: { ...doc.components, schemas: {} } });
    const unused = Object.keys(schemas).filter((name) => {
      const { [name]: _self, ...others } = schemas;
      const ref = `"#/components/schemas/${name}"`;
      return !text.includes(ref) && !JSON.stringify(others).includes(ref);
    });
    if (unused.length === 0) return;
    for (const name of unused) delete schemas[name];
  }
}
