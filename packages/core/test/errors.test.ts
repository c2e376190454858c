import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requirement } from '@esign/testing/requirements';
import { describe, expect, it } from 'vitest';
import { CoreError, ERROR_STATUS } from '../src/errors.ts';
import { issuesToCoreError, toCoreError } from '../src/trpc.ts';
import { SPEC_ERROR_TABLE } from './fixtures/spec-errors.ts';

const specPath = join(import.meta.dirname, '../../../../shared/spec/esignature-api.md');
// The spec sits beside the checkout in CI (.ci/run); a plain clone tests against the fixture only.
const specAtHand = requirement(
  'the specification (../shared/spec/esignature-api.md beside the repository)',
  existsSync(specPath),
  'put the shared spec folder beside the checkout',
);

/** The rows of a Markdown Errors table: `| 422 | code | ... |`. */
function errorRows(markdown: string): [number, string][] {
  const table = markdown.slice(markdown.indexOf('## Errors'), markdown.indexOf('## Limits'));
  return [...table.matchAll(/^\| (\d{3}) \| (\w+) \|/gm)].map((m) => [Number(m[1]), m[2]!]);
}

describe('Errors table', () => {
  it("ERROR_STATUS is exactly the specification's Errors table (codes and statuses), as transcribed in test/fixtures/spec-errors.ts", () => {
    expect(SPEC_ERROR_TABLE.length).toBeGreaterThan(30);
    const codes = SPEC_ERROR_TABLE.map(([, code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(Object.fromEntries(SPEC_ERROR_TABLE.map(([status, code]) => [code, status]))).toEqual(
      ERROR_STATUS,
    );
  });

  it.runIf(specAtHand)(
    "the transcribed table is the specification's Errors table, row for row (a spec change must be copied)",
    () => {
      expect(errorRows(readFileSync(specPath, 'utf8'))).toEqual(SPEC_ERROR_TABLE);
    },
  );

  it('unknown errors become internal_error with a fixed message that leaks nothing', () => {
    const err = toCoreError(new Error('relation "secret_table" does not exist'));
    expect(err.code).toBe('internal_error');
    expect(err.message).not.toContain('secret_table');
  });

  it('CoreError carries its status from the table', () => {
    expect(new CoreError('insufficient_credits', 'x').status).toBe(402);
    expect(new CoreError('remind_too_soon', 'x', { retryAfterSeconds: 5 }).details.retryAfterSeconds).toBe(5);
  });
});

describe('validation issues become missing_parameter / invalid_parameter naming the field', () => {
  it('a key absent from the input is missing_parameter', () => {
    const e = issuesToCoreError([{ path: ['template_id'], message: 'Required' }], {}, undefined);
    expect([e.code, e.message]).toEqual(['missing_parameter', 'Missing required parameter: template_id']);
  });
  it('a present but wrong value is invalid_parameter with its path', () => {
    const e = issuesToCoreError(
      [{ path: ['signers', 0, 'email'], message: 'Invalid email' }],
      { signers: [{ email: 'x' }] },
      undefined,
    );
    expect(e.code).toBe('invalid_parameter');
    expect(e.message).toContain('signers[0].email');
  });
  it('procedure meta can route a key to its own code (invalid_field, invalid_signer)', () => {
    const e = issuesToCoreError(
      [{ path: ['fields', 1, 'type'], message: 'bad type' }],
      { fields: [{}, { type: 'x' }] },
      { fields: 'invalid_field' },
    );
    expect(e.code).toBe('invalid_field');
    expect(e.message).toContain('fields[1].type');
  });
  it('a body that is not an object is invalid_parameter', () => {
    expect(issuesToCoreError([{ path: [], message: 'Expected object' }], [1, 2], undefined).code).toBe(
      'invalid_parameter',
    );
  });
});
