import { appRouter } from '@esign/core';
import { makeRequest, makeTemplate } from '@esign/testing/fixtures';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { type RestRoute, restRoutes } from '../src/routes.ts';

// Every REST route, driven with generated inputs shaped like its schema and with garbage: the
// answer is never a 500 (clients retry those forever) and never a hang. Bounded: RUNS per route.
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
// A hang, not a slow answer on a loaded machine (CI ran a tiny verify past 10 s beside 200 other files).
const REQUEST_TIMEOUT_MS = 30_000;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

let t: TestApp;
let owner: TestAccount;
const realIds: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' });
  owner = await createTestAccount(t.db, { credits: 1000 });
  const request = await makeRequest(t, owner);
  realIds['/templates/{id}'] = String((await makeTemplate(t, owner)).id);
  realIds['/signature_requests/{id}'] = String(request.id);
  realIds['/signers/{id}'] = String(request.signers[0].id);
});
afterAll(() => t.close());

const edgeText = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '💥 ü 中',
  'null',
  'true',
  '-1',
  '0',
  '2147483647',
  '2147483648',
  '99999999999999999999',
  '1e400',
  'NaN',
  '../..',
  '%00',
  '<script>alert(1)</script>',
  'x'.repeat(1000),
  'https://127.0.0.1/x.pdf',
  'data:application/pdf;base64,JVBERi0xLjQ=',
  '2030-01-01T00:00:00Z',
  'a@example.com',
);
const text = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 10 }), edgeText);
const edgeNumbers = fc.constantFrom(
  0,
  -1,
  1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  1e308,
  -1e308,
  0.5,
  -0,
);
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), edgeNumbers);
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Values shaped like the schema most of the time, anything at all otherwise. */
function fromSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return anyJson;
  const variants = schema.anyOf ?? schema.oneOf;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  let shaped: fc.Arbitrary<unknown> | null = null;
  if (schema.enum?.length) shaped = fc.constantFrom(...schema.enum);
  else if (variants?.length) shaped = fc.oneof(...variants.map((s) => fromSchema(s, depth + 1)));
  else if (type === 'object')
    shaped = fc.record(
      Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fromSchema(s, depth + 1)]),
      ),
      { requiredKeys: [] },
    );
  else if (type === 'array') shaped = fc.array(fromSchema(schema.items ?? {}, depth + 1), { maxLength: 3 });
  else if (type === 'string') shaped = text;
  else if (type === 'integer' || type === 'number') shaped = number;
  else if (type === 'boolean') shaped = fc.boolean();
  return shaped ? fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: anyJson }) : anyJson;
}

function inputSchema(route: RestRoute): JsonSchema {
  const procedure = (
    appRouter._def.procedures as unknown as Record<string, { _def: { inputs?: unknown[] } }>
  )[route.procedurePath];
  const parser = procedure?._def.inputs?.[0];
  if (!(parser instanceof z.ZodType)) return { type: 'object', properties: {} };
  return z.toJSONSchema(parser, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** encodeURIComponent refuses lone surrogates; the fuzzer still wants to send them. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

interface Generated {
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  rawBody: string | null;
  contentType: string | null;
}

function requestArbitrary(route: RestRoute): fc.Arbitrary<Generated> {
  const schema = inputSchema(route);
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const paramValue = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constant(realIds[route.path.replace(/\/(duplicate|archive|cancel|remind)$/, '')] ?? '1'),
    },
    { weight: 2, arbitrary: number.map(String) },
    { weight: 2, arbitrary: text },
  );
  const path = fc
    .tuple(...params.map(() => paramValue))
    .map((values) =>
      params.reduce((p, name, i) => p.replace(`{${name}}`, encodeSegment(values[i]!)), route.path),
    );
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(([k]) => !params.includes(k)),
  );
  const shaped = fromSchema({ type: 'object', properties });
  const query = fc.dictionary(fc.constantFrom(...Object.keys(properties), 'extra'), fc.oneof(text, number), {
    maxKeys: 4,
  });
  return fc.record({
    path,
    query: route.method === 'GET' ? query : fc.constant({}),
    body:
      route.method === 'GET' ? fc.constant(undefined) : fc.oneof({ weight: 4, arbitrary: shaped }, anyJson),
    rawBody: fc.oneof(
      { weight: 8, arbitrary: fc.constant(null) },
      fc.constantFrom('{', '{"a":', '[1,]', 'nul', '\u0000', '{"name":"\\ud800"}', `${'['.repeat(5000)}`),
      fc.string({ maxLength: 50 }),
    ),
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      fc.constantFrom(
        'Application/JSON; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        null,
      ),
    ),
  });
}

async function send(route: RestRoute, g: Generated) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(g.query)) search.append(k, String(v));
  const qs = search.toString();
  const headers: Record<string, string> = { authorization: `Bearer ${owner.key}` };
  let body: string | undefined;
  if (route.method !== 'GET') {
    body = g.rawBody ?? (g.body === undefined ? undefined : JSON.stringify(g.body));
    if (g.contentType) headers['content-type'] = g.contentType;
  }
  const res = await fetch(`${t.baseUrl}/api/v1${g.path}${qs ? `?${qs}` : ''}`, {
    method: route.method,
    headers,
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, text: await res.text() };
}

describe('Errors: generated input on every REST route is never a 500 and never hangs', () => {
  it.each(restRoutes(appRouter).map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route), async (g) => {
          const res = await send(route, g);
          expect(res.status, res.text).toBeLessThan(500);
          if (res.status >= 400) {
            expect(JSON.parse(res.text), res.text).toEqual({
              error: { code: expect.any(String), message: expect.any(String) },
            });
          }
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    },
    60_000,
  );
});
