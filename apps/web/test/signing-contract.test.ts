import type { SigningOpenOutput } from '@esign/core/schemas/signing';
import { FIELD_TYPES } from '@esign/domain';
import { CATALOGUES } from '@esign/i18n';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { OpenResult } from '../src/signing/client/types.ts';

/**
 * The page's types are inferred from AppRouter (types.ts), so a changed procedure fails the page's
 * type check. Whatever signing.open declares is what the page reads.
 */
const toPage = (server: z.infer<typeof SigningOpenOutput>): OpenResult => server;

describe('signing page and signing procedures agree', () => {
  it('has a label for every field type of the vocabulary, and no other', () => {
    // Each type's name in every language: the `type.*` messages of the catalogues (@esign/i18n).
    for (const catalogue of Object.values(CATALOGUES)) {
      const types = Object.keys(catalogue).filter((k) => k.startsWith('type.'));
      expect(types.map((k) => k.slice(5)).sort()).toEqual([...FIELD_TYPES].sort());
    }
    expect(typeof toPage).toBe('function');
  });
});
