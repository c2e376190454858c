import {
  isImageDataUri,
  isImageFieldType,
  isValidDate,
  MAX_FILE_CHARS,
  MAX_IMAGE_CHARS,
  MAX_TEXT_LENGTH,
  NUMBER_PATTERN,
  PHONE_PATTERN,
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
 * The one check of a field value, for prefill (POST /signature_requests, PATCH /signers) and for
 * the signing page. Returns the normalised value; null/empty clears. The limits and patterns are
 * @esign/domain's, which the signing page checks too before it sends.
 */
export function normaliseFieldValue(field: SnapshotField, value: unknown): FieldValue {
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
      if (typeof value !== 'string' || !isValidDate(value))
        throw bad(field, 'expected a date as YYYY-MM-DD', 'error.value_date');
      return value;
    case 'number': {
      const n = typeof value === 'string' && NUMBER_PATTERN.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n))
        throw bad(field, 'expected a number', 'error.value_number');
      return n;
    }
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

/** Validates an object of values keyed by field name against the fields a signer may fill. */
export function normaliseValues(
  fields: SnapshotField[],
  values: unknown,
  what: string,
): Record<string, FieldValue> {
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
    out[name] = normaliseFieldValue(field, value);
  }
  return out;
}
