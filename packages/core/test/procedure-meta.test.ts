import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from '../src/app-router.ts';
import {
  actorProcedure,
  adminProcedure,
  adminReadProcedure,
  procedureMeta,
  publicProcedure,
  router,
  writeProcedure,
} from '../src/trpc.ts';

const openapi = { method: 'POST', path: '/things' } as const;

describe('procedure meta, the one list adapters read (issue 28, item 2)', () => {
  it('lists every procedure with its path, type, meta and schemas', () => {
    const input = z.object({ id: z.number() });
    const output = z.object({ ok: z.boolean() });
    const r = router({
      things: router({
        get: publicProcedure
          .meta({ openapi: { method: 'GET', path: '/things/{id}' } })
          .input(input)
          .output(output)
          .query(() => ({ ok: true })),
        bare: publicProcedure.mutation(() => null),
      }),
    });
    expect(procedureMeta(r)).toEqual([
      {
        path: 'things.get',
        type: 'query',
        meta: { openapi: { method: 'GET', path: '/things/{id}' } },
        input,
        output,
      },
      { path: 'things.bare', type: 'mutation', meta: {}, input: undefined, output: undefined },
    ]);
  });

  it('write access comes from meta that writeProcedure sets, kept when a procedure adds its own meta', () => {
    const r = router({
      write: writeProcedure.meta({ openapi }).mutation(() => null),
      admin: adminProcedure.meta({ openapi, idempotent: true }).mutation(() => null),
      actor: actorProcedure.meta({ openapi }).mutation(() => null),
      adminRead: adminReadProcedure.query(() => null),
      open: publicProcedure.query(() => null),
    });
    const access = Object.fromEntries(procedureMeta(r).map((p) => [p.path, p.meta.writeAccess ?? false]));
    expect(access).toEqual({ write: true, admin: true, actor: false, adminRead: false, open: false });
    expect(procedureMeta(r).find((p) => p.path === 'admin')?.meta).toEqual({
      writeAccess: true,
      openapi,
      idempotent: true,
    });
  });

  it("an MCP tool's scope is `write` exactly when its procedure needs write access", () => {
    const tools = procedureMeta(appRouter).filter((p) => p.meta.mcp);
    expect(tools.length).toBeGreaterThan(10);
    for (const p of tools) expect(p.meta.mcp?.scope, p.path).toBe(p.meta.writeAccess ? 'write' : 'read');
  });

  it('a procedure with two input schemas is refused: adapters read one', () => {
    const r = router({
      two: publicProcedure
        .input(z.object({ a: z.string() }))
        .input(z.object({ b: z.string() }))
        .query(() => null),
    });
    expect(() => procedureMeta(r)).toThrow(/two has 2 input schemas/);
  });
});
