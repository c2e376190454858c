import { appRouter, CoreError, type Meta } from '@esign/core';
import { initTRPC } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TRPC_BODY_LIMIT, trpcRouteRules } from '../src/trpc/routes.ts';

// Issue 43 item 2: /trpc reads a call's body error and the address limits to ask before reading a
// body from the procedures' meta (`request`); it keeps no procedure names.

describe('/trpc route rules come from procedure meta (issue 43: one home per rule)', () => {
  it('a new procedure gets its body error and its address limit from its meta only', async () => {
    const t = initTRPC.meta<Meta>().create();
    const refusal = new CoreError('rate_limited', 'Too many from your address');
    const router = t.router({
      scan: t.procedure
        .meta({ request: { body: 'document', addressLimit: async () => refusal } })
        .input(z.object({ file: z.string() }))
        .mutation(() => 1),
      note: t.procedure.input(z.object({ text: z.string() })).mutation(() => 1),
    });
    const rules = trpcRouteRules(router);
    expect(rules.bodyLimit('scan')).toEqual({ bytes: TRPC_BODY_LIMIT, code: 'document_too_large' });
    expect(rules.bodyLimit('note')).toEqual({ bytes: TRPC_BODY_LIMIT, code: 'invalid_request' });
    // A batch's body is not one document; its calls' address limits are all asked.
    expect(rules.bodyLimit('note,scan').code).toBe('invalid_request');
    expect(rules.addressLimits('note')).toEqual([]);
    const limits = rules.addressLimits('note,scan');
    expect(limits).toHaveLength(1);
    expect(await limits[0]!({ db: null as never, now: () => new Date() }, { ip: '192.0.2.1' })).toBe(refusal);
  });

  it('the public verify page keeps its rules: document_too_large, and its address limit asked before the body', () => {
    const rules = trpcRouteRules(appRouter);
    expect(rules.bodyLimit('documents.verifyPublic').code).toBe('document_too_large');
    expect(rules.addressLimits('documents.verifyPublic')).toHaveLength(1);
    expect(rules.addressLimits('templates.list,documents.verifyPublic')).toHaveLength(1);
    expect(rules.bodyLimit('signing.complete').code).toBe('invalid_request');
  });
});
