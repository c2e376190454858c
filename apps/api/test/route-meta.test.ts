import { appRouter, type Meta } from '@esign/core';
import { BODY_LIMITS, JSON_LIMIT } from '@esign/http';
import { initTRPC } from '@trpc/server';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restBodyLimit } from '../src/procedure-routes.ts';
import { type RestRoute, restRoutes } from '../src/routes.ts';

// Issue 43 item 2: per-route rules live in procedure meta (`request`), and the REST adapter reads
// them from there; it keeps no list of paths.

const limitOf = (route: RestRoute | undefined) =>
  restBodyLimit({ esign: { route } } as unknown as Pick<FastifyRequest, 'esign'>);

describe('REST body limits come from procedure meta (issue 43: one home per rule)', () => {
  it('a new procedure gets its limit from its meta only; without one, 1 MB of JSON', () => {
    const t = initTRPC.meta<Meta>().create();
    const router = t.router({
      scan: t.procedure
        .meta({ openapi: { method: 'POST', path: '/scans' }, request: { body: 'document' } })
        .input(z.object({ file: z.string() }))
        .mutation(() => 1),
      note: t.procedure
        .meta({ openapi: { method: 'POST', path: '/notes' } })
        .input(z.object({ text: z.string() }))
        .mutation(() => 1),
    });
    const routes = restRoutes(router);
    expect(limitOf(routes.find((r) => r.path === '/scans'))).toEqual({
      bytes: BODY_LIMITS.document.bytes,
      code: 'document_too_large',
    });
    expect(limitOf(routes.find((r) => r.path === '/notes'))).toEqual({
      bytes: JSON_LIMIT,
      code: 'invalid_request',
    });
  });

  it('the API routes keep the limits the adapter listed before: templates, template fields, verify, bulk files', () => {
    const routes = restRoutes(appRouter);
    const at = (method: string, path: string) =>
      limitOf(routes.find((r) => r.method === method && r.path === path));
    expect(at('POST', '/templates')).toEqual(BODY_LIMITS.template_upload);
    expect(at('PATCH', '/templates/{id}')).toEqual(BODY_LIMITS.template_fields);
    expect(at('POST', '/documents/verify')).toEqual(BODY_LIMITS.document);
    expect(at('POST', '/bulk_sends')).toEqual(BODY_LIMITS.bulk_file);
    expect(at('POST', '/bulk_sends/preview')).toEqual(BODY_LIMITS.bulk_file);
    expect(at('POST', '/signature_requests')).toEqual(BODY_LIMITS.json);
    // Documents are streamed to files only where the meta says the input carries them.
    const withDocuments = routes.filter((r) => r.meta.request?.documents).map((r) => `${r.method} ${r.path}`);
    expect(withDocuments.sort()).toEqual(['POST /documents/verify', 'POST /templates']);
  });
});
