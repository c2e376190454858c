import {
  formatLocaleDate,
  formatLocaleNumber,
  isImageDataUri,
  isImageFieldType,
  isValidDate,
  MAX_FILE_CHARS,
  MAX_IMAGE_CHARS,
  MAX_TEXT_LENGTH,
  NUMBER_PATTERN,
  PHONE_PATTERN,
  parseLocaleDate,
  parseLocaleNumber,
} from '@esign/domain';
import type { MessageKey } from '@esign/i18n';
import { CoreError } from '../errors.ts';
import { cleanImageValue, ImageValueError } from './images.ts';
import type { FieldValue, SnapshotField } from './request-model.ts';

/** signature, initials, image and stamp fields hold a PNG or JPEG `data:` URI (@esign/domain). */
export function isImageField(type: string): boolean {
  return isImageFieldType(type);
}

/**
 * 422 invalid_request for a value `field` cannot take: the API's English message, and the same
 * refusal in the signer's words (issue 32) when the signing page sent it (`key`).
 */
function bad(
  field: SnapshotField,
  message: string,
  key?: MessageKey,
  values: Record<string, string | number> = {},
): CoreError {
  return new CoreError(
    'invalid_request',
    `Invalid value for field "${field.name}" (${field.type}): ${message}`,
    key ? { messageKey: key, messageValues: { field: field.name, ...values } } : {},
  );
}

/**
 * A date field's value: `YYYY-MM-DD`; from the signing page (`locale` given) also the date as the
 * signer writes it (`31.12.2026` from a German signer, issue 42.6), stored as `YYYY-MM-DD`.
 */
function dateValue(field: SnapshotField, value: unknown, locale: string | undefined): string {
  const iso =
    typeof value !== 'string'
      ? null
      : locale
        ? parseLocaleDate(value, locale)
        : isValidDate(value)
          ? value
          : null;
  if (iso !== null) return iso;
  const example = locale ? formatLocaleDate('2026-12-31', locale) : '2026-12-31';
  const as = locale ? `YYYY-MM-DD or as ${example}` : 'YYYY-MM-DD';
  throw bad(field, `expected a date as ${as}`, 'error.value_date', { example });
}

/**
 * A number field's value: a JSON number, or text; text is `-1234.5` through the API, and the
 * number as the signer writes it from the signing page (`1.234,5` from a German signer, issue
 * 42.6). A separator the signer's language does not read that way is refused, not guessed.
 */
function numberValue(field: SnapshotField, value: unknown, locale: string | undefined): number {
  let n: number | null = typeof value === 'number' && Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    if (locale) n = parseLocaleNumber(value, locale);
    else if (NUMBER_PATTERN.test(value.trim())) n = Number(value);
  }
  if (n !== null && Number.isFinite(n)) return n;
  const example = locale ? formatLocaleNumber(1234.5, locale) : '1234.5';
  throw bad(field, `expected a number such as ${example}`, 'error.value_number', { example });
}

/**
 * The one check of a field value, for prefill (POST /signature_requests, PATCH /signers) and for
 * the signing page (with the signer's `locale`, in which dates and numbers may be written).
 * Returns the normalised value; null/empty clears. The limits and patterns are @esign/domain's,
 * which the signing page checks too before it sends.
 */
function normaliseFieldValue(field: SnapshotField, value: unknown, locale?: string): FieldValue {
  if (value === null || value === undefined || value === '') return null;
  switch (field.type) {
    case 'text':
    case 'cells':
      if (typeof value !== 'string') throw bad(field, 'expected text', 'error.value_text');
      if (value.length > MAX_TEXT_LENGTH)
        throw bad(field, `text longer than ${MAX_TEXT_LENGTH} characters`, 'error.value_too_long', {
          max: MAX_TEXT_LENGTH,
        });
      return value;
    case 'phone':
      if (typeof value !== 'string' || !PHONE_PATTERN.test(value))
        throw bad(field, 'expected a phone number', 'error.value_phone');
      return value;
    case 'date':
      return dateValue(field, value, locale);
    case 'number':
      return numberValue(field, value, locale);
    case 'checkbox':
      if (typeof value !== 'boolean') throw bad(field, 'expected true or false', 'error.value_choice');
      return value;
    case 'select':
    case 'radio':
      if (typeof value !== 'string' || !(field.options ?? []).includes(value)) {
        throw bad(field, `expected one of ${JSON.stringify(field.options ?? [])}`, 'error.value_choice');
      }
      return value;
    case 'multiple': {
      if (
        !Array.isArray(value) ||
        value.some((v) => typeof v !== 'string' || !(field.options ?? []).includes(v))
      ) {
        throw bad(field, `expected an array of ${JSON.stringify(field.options ?? [])}`, 'error.value_choice');
      }
      return value.length ? [...new Set(value as string[])] : null;
    }
    case 'signature':
    case 'initials':
    case 'image':
    case 'stamp':
      if (typeof value !== 'string')
        throw bad(field, 'expected a PNG or JPEG image as base64', 'error.value_image');
      try {
        return cleanImageValue(value);
      } catch (err) {
        if (err instanceof ImageValueError) throw bad(field, err.message, 'error.value_image');
        throw err;
      }
    case 'file': {
      const f = value as { name?: unknown; type?: unknown; data?: unknown };
      if (
        !f ||
        typeof f !== 'object' ||
        typeof f.name !== 'string' ||
        typeof f.data !== 'string' ||
        !f.data.startsWith('data:')
      ) {
        throw bad(field, 'expected {name, type, data} with data a base64 data: URI', 'error.value_file');
      }
      if (f.data.length > MAX_FILE_CHARS) throw bad(field, 'file larger than 10 MB', 'error.value_file');
      return {
        name: f.name.slice(0, 255),
        type: typeof f.type === 'string' ? f.type : 'application/octet-stream',
        data: f.data,
      };
    }
  }
  throw bad(field, 'unsupported field type');
}

/**
 * Validates an object of values keyed by field name against the fields a signer may fill; `what`
 * names the object in messages, `locale` is the signer's on the signing page (dates and numbers).
 */
export function normaliseValues(
  fields: SnapshotField[],
  values: unknown,
  how: { what: string; locale?: string },
): Record<string, FieldValue> {
  const { what, locale } = how;
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw new CoreError('invalid_parameter', `${what} must be an object keyed by field name`);
  }
  const out: Record<string, FieldValue> = {};
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    const field = fields.find((f) => f.name === name);
    if (!field) {
      throw new CoreError(
        'invalid_request',
        `${what}: "${name}" is not a field of this signer (fields: ${fields.map((f) => f.name).join(', ') || 'none'})`,
        { messageKey: 'error.value_unknown', messageValues: { field: name } },
      );
    }
    out[name] = normaliseFieldValue(field, value, locale);
  }
  return out;
}
