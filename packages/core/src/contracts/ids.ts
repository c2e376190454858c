import { z } from 'zod';

/**
 * Every id column is a PostgreSQL `integer` (int4): a larger value names no row, and sending it to
 * the database would fail the query. One definition bounds them all.
 */
const MAX_ID = 2_147_483_647;

/** How an id is written in a path or query string: a positive integer in plain decimal digits. */
export const DECIMAL_ID = /^[1-9][0-9]*$/;

export const ID_FORM = 'expected a positive integer in decimal digits';

/**
 * An id read from a path or query string (`/templates/{id}`, `?template_id=`, `?cursor=`). Text is
 * taken only in plain decimal (`12`, not `1e3`, `0x10`, `12.0` or ` 12`); a number (MCP) as it is.
 */
export const IdParam = z.preprocess(
  (value) => (typeof value === 'string' && !DECIMAL_ID.test(value) ? Number.NaN : value),
  z.coerce.number({ error: ID_FORM }).int({ error: ID_FORM }).positive({ error: ID_FORM }).max(MAX_ID),
);

/** An id in a JSON body (`template_id` of POST /signature_requests). */
export const IdField = z.number().int().positive().max(MAX_ID);

/** An id in a response object (documented with an example, not the safe-integer bounds). */
export const IdOutput = z
  .number()
  .int()
  .positive()
  .max(MAX_ID)
  .meta({ examples: [1042] });

/** A date-time in a response object: ISO 8601, UTC. */
export const DateTime = z.string().meta({ format: 'date-time', examples: ['2026-11-27T09:30:00.000Z'] });

/** The `brand_id` a template or a request may name (extension, issue 44; GET /brands lists them). */
export const BrandIdField = IdField.describe(
  "extension: the brand signers see (GET /brands); default the template's brand, else the account's default brand",
);
