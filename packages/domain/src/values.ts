/** A `file` field's value: `data` is a base64 `data:` URI. (A type, not an interface, so it stays assignable to `Record<string, unknown>`.) */
export type FileValue = { name: string; type: string; data: string };

/**
 * A field value as stored (signers.prefill and signers.values, keyed by field name) and as the
 * signing procedures take it: text, phone, cells: string; date: 'YYYY-MM-DD'; number: number;
 * checkbox: boolean; select, radio: one of the options; multiple: an array of options;
 * signature, initials, image, stamp: a PNG or JPEG `data:` URI; file: {@link FileValue}.
 * null means "no value" (a cleared field).
 */
export type FieldValue = string | number | boolean | string[] | FileValue | null;

/** Longest text (text and cells fields), in characters. */
export const MAX_TEXT_LENGTH = 10_000;
/** Longest image `data:` URI (signature, initials, image, stamp): about a 3 MB picture. */
export const MAX_IMAGE_CHARS = 4 * 1024 * 1024;
/** Largest file a `file` field takes. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Longest `data:` URI of a file field: {@link MAX_FILE_BYTES} in base64 plus the `data:` prefix. */
export const MAX_FILE_CHARS = 14 * 1024 * 1024;

/** A phone field: digits, spaces and + ( ) - . / only. */
export const PHONE_PATTERN = /^\+?[0-9 ()./-]{3,30}$/;
/** A number field given as text: an optional minus, digits, an optional decimal point part. */
export const NUMBER_PATTERN = /^-?\d+(\.\d+)?$/;
/** An image field's value: a whole base64 PNG or JPEG `data:` URI. */
export const IMAGE_DATA_URI_PATTERN = /^data:image\/(png|jpe?g);base64,[A-Za-z0-9+/]+={0,2}$/;

/** A date field: `YYYY-MM-DD` naming a day of the calendar (no 2026-02-30). */
export function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export function isImageDataUri(value: unknown): value is string {
  return typeof value === 'string' && IMAGE_DATA_URI_PATTERN.test(value);
}

/**
 * Whether a value fills a required field. null, a missing value, an empty string, an empty list
 * and an unchecked checkbox (false) do not; only checkbox fields ever hold false.
 */
export function isFilled(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === '') return false;
  return !(Array.isArray(value) && value.length === 0);
}

/** A signer's two sources of values, keyed by field name (the signers row's jsonb columns). */
export interface SignerValueSources {
  /** set by the sender (POST /signature_requests, PATCH /signers); the signer cannot change them */
  prefill?: Readonly<Record<string, unknown>> | null;
  /** entered by the signer on the signing page (null for a field they cleared) */
  values?: Readonly<Record<string, unknown>> | null;
}

const own = (record: Readonly<Record<string, unknown>> | null | undefined, name: string): unknown =>
  record && Object.hasOwn(record, name) ? record[name] : undefined;

/**
 * The value of a signer's field, the one rule for merging prefilled and entered values (the Signer
 * object's `values`, signing.open, the sealed document and its audit trail): what the signer
 * entered, else what the sender prefilled, else null.
 *
 * null and a missing key both mean "no value", so a null the signer stored (a field they cleared)
 * never hides the sender's prefilled value, and an entered value wins over a prefilled one. Only
 * the record's own keys count (a field named `constructor` is not Object's).
 */
export function effectiveValue(signer: SignerValueSources, name: string): FieldValue {
  return (own(signer.values, name) ?? own(signer.prefill, name) ?? null) as FieldValue;
}

/** {@link effectiveValue} for every field named in either source; null where neither has a value. */
export function effectiveValues(signer: SignerValueSources): Record<string, FieldValue> {
  const names = new Set([...Object.keys(signer.prefill ?? {}), ...Object.keys(signer.values ?? {})]);
  // fromEntries defines own properties, so a field named __proto__ stays a plain key.
  return Object.fromEntries([...names].map((name) => [name, effectiveValue(signer, name)]));
}
