import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { CoreError } from '../../errors.ts';

/**
 * A signer's phone number in E.164 (`+49301234567`), from what was given in international format
 * (`+49 30 1234567`, `0049 30 1234567`, spaces, dots, dashes and brackets allowed). A number that
 * cannot exist (too short or long for its country, unknown country code, no country code) is
 * `422 invalid_parameter` naming the field.
 */
export function normalisePhone(value: string, field: string): string {
  const trimmed = value.trim().replace(/^00(?=[1-9])/, '+');
  const parsed = /^\+?[0-9 ()./-]{5,30}$/.test(trimmed) ? parsePhoneNumberFromString(trimmed) : undefined;
  if (!parsed?.isPossible()) {
    throw new CoreError(
      'invalid_parameter',
      `${field}: ${JSON.stringify(value)} is not a possible phone number; give it in international format with its country code, e.g. +49 30 1234567`,
    );
  }
  return parsed.number;
}
