import { appRouter, MAX_DOCUMENTS, MAX_TEMPLATE_FIELDS, parseConfig } from '@esign/core';
import { EVENT_TYPES } from '@esign/domain';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi.ts';
import { restRoutes } from '../src/routes.ts';

const doc = buildOpenApiDocument(parseConfig({ PUBLIC_URL: 'https://sign.example.com' }));
const op = (method: string, path: string) => doc.paths[path][method.toLowerCase()];
const statuses = (method: string, path: string) =>
  Object.keys(op(method, path).responses)
    .map(Number)
    .sort((a, b) => a - b);
const routes = restRoutes(appRouter);

describe('OpenAPI document: each operation lists only the statuses it can return', () => {
  it('GET /me: 200 and the authentication, rate-limit and internal errors only (no 402, 403, 404, 422, 502)', () => {
    expect(statuses('GET', '/me')).toEqual([200, 401, 429, 500]);
    expect(statuses('GET', '/credits')).toEqual([200, 401, 429, 500]);
  });

  it('POST /templates: the spec’s list (400, 401, 403, 409, 422, 429, 500) after 201', () => {
    expect(statuses('POST', '/templates')).toEqual([201, 400, 401, 403, 409, 422, 429, 500]);
  });

  it('402 insufficient_credits only where sending uses credits (POST /signature_requests, bulk sends)', () => {
    const with402 = routes.filter((r) => op(r.method, r.path).responses['402']).map((r) => r.path);
    expect(with402.sort()).toEqual(['/bulk_sends', '/bulk_sends/{id}/resume', '/signature_requests']);
    expect(op('POST', '/signature_requests').responses['402'].description).toContain('insufficient_credits');
  });

  it('502 payment_provider_error only on operations whose procedure names it', () => {
    for (const r of routes)
      expect(Boolean(op(r.method, r.path).responses['502']), `${r.method} ${r.path}`).toBe(
        Boolean(r.meta.errors?.includes('payment_provider_error')),
      );
  });

  it('403 read_only_api_key on every write except verify and feedback (read-only keys may call them), never on GET', () => {
    for (const r of routes) {
      const readAllowed = r.method === 'GET' || r.path === '/documents/verify' || r.path === '/feedback';
      expect(Boolean(op(r.method, r.path).responses['403']), `${r.method} ${r.path}`).toBe(!readAllowed);
      if (!readAllowed)
        expect(op(r.method, r.path).responses['403'].description).toContain('read_only_api_key');
    }
  });

  it('404 on every operation with a path id; 409 and Idempotency-Key exactly on idempotent ones', () => {
    for (const r of routes) {
      const o = op(r.method, r.path);
      const has404 = Boolean(o.responses['404']);
      if (r.path.includes('{')) expect(has404, r.path).toBe(true);
      else expect(has404, r.path).toBe(r.meta.errors?.includes('not_found') ?? false);
      expect(Boolean(o.responses['409']), `${r.method} ${r.path}`).toBe(Boolean(r.meta.idempotent));
      const header = (o.parameters ?? []).some((p: { name: string }) => p.name === 'Idempotency-Key');
      expect(header, `${r.method} ${r.path}`).toBe(Boolean(r.meta.idempotent));
    }
  });

  it('422 where there is input, 400 invalid_json where there is a body; every error uses the envelope', () => {
    expect(op('GET', '/templates').responses['422']).toBeDefined();
    expect(op('GET', '/me').responses['422']).toBeUndefined();
    for (const r of routes) {
      const o = op(r.method, r.path);
      expect(Boolean(o.responses['400']), `${r.method} ${r.path}`).toBe(r.method !== 'GET');
      for (const [status, response] of Object.entries<any>(o.responses)) {
        if (Number(status) < 400) continue;
        expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });
});

describe('OpenAPI document: request bodies', () => {
  it('POST /templates multipart takes documents[] file parts (required, binary) and text fields, not `fields`', () => {
    const body = op('POST', '/templates').requestBody.content;
    const form = body['multipart/form-data'].schema;
    expect(form.required).toEqual(['documents[]']);
    expect(form.properties['documents[]']).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: MAX_DOCUMENTS,
      items: { type: 'string', format: 'binary' },
    });
    expect(Object.keys(form.properties).sort()).toEqual(
      ['documents[]', 'external_id', 'folder', 'name', 'password'].sort(),
    );
    expect(form.properties.fields).toBeUndefined();
    expect(body['application/json'].schema.required).toContain('documents');
    expect(body['application/json'].schema.properties.fields).toBeDefined();
  });

  it('POST /documents/verify multipart `file` is a binary file part; JSON `file` stays base64 text', () => {
    const body = op('POST', '/documents/verify').requestBody.content;
    expect(body['multipart/form-data'].schema).toMatchObject({
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    expect(body['application/json'].schema.properties.file.format).toBeUndefined();
  });
});

describe('OpenAPI document: the guide around the operations', () => {
  it('info.description has the error table (every code of ERROR_STATUS), webhooks and the MCP tools', async () => {
    const { ERROR_STATUS } = await import('@esign/core');
    const text: string = doc.info.description;
    for (const [code, status] of Object.entries(ERROR_STATUS))
      expect(text).toContain(`| ${status} | \`${code}\` |`);
    for (const type of EVENT_TYPES) expect(text).toContain(`| \`${type}\` |`);
    expect(text).toContain('X-Esign-Signature');
    for (const r of routes)
      if (r.meta.mcp)
        expect(text).toContain(`| \`${r.meta.mcp.tool}\` | ${r.meta.mcp.scope} | \`${r.method} ${r.path}\``);
    expect(text).toContain('https://sign.example.com/mcp');
  });

  it('webhooks: one entry per event type; data has the shape of the matching GET response', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_TYPES]);
    const completed =
      doc.webhooks['signature_request.completed'].post.requestBody.content['application/json'].schema;
    expect(completed.properties.data).toEqual(
      op('GET', '/signature_requests/{id}').responses['200'].content['application/json'].schema,
    );
  });
});

describe('OpenAPI document: real examples, a license, nothing unused (issue 33 item 10)', () => {
  const text = JSON.stringify(doc);

  it('no schema carries the safe-integer bounds that made every example id -9007199254740991', () => {
    expect(text).not.toContain(String(Number.MIN_SAFE_INTEGER));
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('ids and timestamps in responses have examples, and source lists its values', () => {
    const template = op('GET', '/templates/{id}').responses['200'].content['application/json'].schema;
    expect(template.properties.id.examples).toEqual([1042]);
    expect(template.properties.created_at).toMatchObject({ format: 'date-time' });
    expect(template.properties.created_at.examples[0]).toMatch(/^\d{4}-\d\d-\d\dT/);
    const request = op('GET', '/signature_requests/{id}').responses['200'].content['application/json'].schema;
    expect(request.properties.source.enum).toEqual(
      expect.arrayContaining(['api', 'mcp', 'link', 'bulk', 'embed']),
    );
  });

  it('names its license and has no component schema that nothing refers to', () => {
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    for (const name of Object.keys(doc.components.schemas)) {
      const { [name]: _self, ...others } = doc.components.schemas;
      const rest = JSON.stringify({ ...doc, components: { ...doc.components, schemas: others } });
      expect(rest, name).toContain(`"#/components/schemas/${name}"`);
    }
  });
});

describe('issue 29 item 3: the maximum of fields is documented', () => {
  it('POST and PATCH /templates: `fields` has maxItems MAX_TEMPLATE_FIELDS and says so in its description', () => {
    for (const [method, path] of [
      ['POST', '/templates'],
      ['PATCH', '/templates/{id}'],
    ] as const) {
      const fields = op(method, path).requestBody.content['application/json'].schema.properties.fields;
      expect(fields.maxItems).toBe(MAX_TEMPLATE_FIELDS);
      expect(fields.description).toContain(`at most ${MAX_TEMPLATE_FIELDS.toLocaleString('en')} fields`);
    }
  });
});
