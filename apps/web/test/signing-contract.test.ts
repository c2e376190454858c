import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { SigningOpenOutput } from '../../../packages/core/src/routers/signing.schemas.ts';
import { FIELD_TYPES } from '../../../packages/core/src/routers/templates.schemas.ts';
import type { OpenResult } from '../src/signing/client/types.ts';
import { TYPE_LABELS } from '../src/signing/client/values.ts';

/**
 * The page keeps its own copy of the signing.open shape (the client bundle does not import zod).
 * This assignment fails the typecheck when the procedure's output changes under it.
 */
const readable = (server: z.infer<typeof SigningOpenOutput>): OpenResult => server;

describe('signing page and signing procedures agree', () => {
  it('has an input and a label for every field type the procedures return', () => {
    expect(Object.keys(TYPE_LABELS).sort()).toEqual([...FIELD_TYPES].sort());
    expect(typeof readable).toBe('function');
  });
});
