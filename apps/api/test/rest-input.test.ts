import { appRouter, procedureMeta } from '@esign/core';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputPlan, restInput } from '../src/rest-input.ts';
import { restRoutes } from '../src/routes.ts';

const request = (method: string, parts: { query?: unknown; body?: unknown }) =>
  ({ method, query: parts.query ?? {}, body: parts.body }) as unknown as FastifyRequest;

/** Every `coerce` flag of every schema reachable from the procedures' inputs, in a fixed order. */
function coerceFlags(): unknown[] {
  const seen = new Set<object>();
  const flags: unknown[] = [];
  const walk = (value: unknown) => {
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    const def = (value as { _zod?: { def?: { coerce?: boolean } } })._zod?.def;
    if (def) flags.push(def.coerce);
    for (const child of Object.values(def ?? value)) walk(child);
  };
  for (const p of procedureMeta(appRouter)) walk(p.input);
  return flags;
}

describe('REST input, worked out once per route (issue 28, item 2)', () => {
  it('building the route table and coercing every route’s input changes no shared zod schema', () => {
    const before = coerceFlags();
    expect(before.length).toBeGreaterThan(100);
    for (const route of restRoutes(appRouter)) {
      const query = {
        template_id: '1',
        limit: '5',
        send_email: 'true',
        fields: [{ required: 1, areas: [{ page: '1' }] }],
      };
      restInput(route.input, request(route.method, route.method === 'GET' ? { query } : { body: query }), {
        id: '3',
      });
    }
    expect(coerceFlags()).toEqual(before);
    const post = restRoutes(appRouter).find((r) => r.method === 'POST' && r.path === '/signature_requests')!;
    const input = procedureMeta(appRouter).find((p) => p.path === post.procedurePath)!.input!;
    const parsed = input.safeParse({ template_id: '7', signers: [{ email: 'a@example.com' }] });
    expect(parsed.success, 'a string template_id outside REST').toBe(false);
  });

  it('numbers and booleans are coerced as z.coerce does, in objects and arrays; absent keys stay absent', () => {
    const schema = z.object({
      n: z.number(),
      b: z.boolean().default(true),
      maybe: z.number().nullable().optional(),
      list: z.array(z.object({ page: z.number(), note: z.string() })).optional(),
      choice: z.union([z.number(), z.string()]).optional(),
    });
    const plan = inputPlan(schema);
    const body = { n: '12', b: '', maybe: null, list: [{ page: '3', note: '4' }], choice: '5' };
    expect(restInput(plan, request('POST', { body }), {})).toEqual({
      n: 12,
      b: false,
      maybe: null,
      list: [{ page: 3, note: '4' }],
      choice: '5',
    });
    expect(body.list[0]!.page, 'the request body itself is left as it came').toBe('3');
    expect(restInput(plan, request('POST', { body: { b: 'no' } }), {})).toEqual({ b: true });
    expect(restInput(plan, request('POST', { body: { n: 'abc' } }), {})).toEqual({ n: Number.NaN });
  });

  it('text PostgreSQL cannot store and ids that coerce themselves keep the client’s text (core names them)', () => {
    const plan = inputPlan(z.object({ id: z.coerce.number(), n: z.number() }));
    expect(restInput(plan, request('POST', { body: { n: '1\u0000' } }), { id: 'abc' })).toEqual({
      n: '1\u0000',
      id: 'abc',
    });
  });

  it('query strings: one value per key, a single value for an array key becomes an array, empty values are left out', () => {
    const plan = inputPlan(z.object({ status: z.array(z.string()).optional(), q: z.string().optional() }));
    expect(restInput(plan, request('GET', { query: { status: 'sent', q: '' } }), {})).toEqual({
      status: ['sent'],
    });
    expect(restInput(plan, request('GET', { query: { status: ['a', 'b'], q: ['x'] } }), {})).toEqual({
      status: ['a', 'b'],
      q: 'x',
    });
  });

  it('path parameters override the body; a procedure without input gets undefined; one with none gets an object', () => {
    const plan = inputPlan(z.object({ id: z.coerce.number() }));
    expect(restInput(plan, request('POST', { body: { id: 1, x: 2 } }), { id: '9' })).toEqual({
      id: '9',
      x: 2,
    });
    expect(restInput(inputPlan(z.void()), request('GET', { query: { a: '1' } }), {})).toBeUndefined();
    expect(restInput(inputPlan(undefined), request('GET', { query: { a: '1' } }), {})).toEqual({ a: '1' });
  });
});
