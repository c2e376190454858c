import {
  formatLocaleDate,
  formatLocaleNumber,
  isFilled,
  isImageDataUri,
  MAX_TEXT_LENGTH,
  PHONE_PATTERN,
  parseLocaleDate,
  parseLocaleNumber,
} from '@esign/domain';
import { compareAreas } from './geometry.ts';
import { pageLocale, tr } from './i18n.ts';
import type { FieldType, FieldValue, FileValue, SigningField } from './types.ts';

/** The value rules the procedures enforce (core field-values.ts), from @esign/domain. */
export { isFilled };

/** How each type is named to people (labels, screen readers), in the page's language. */
export function typeLabel(type: FieldType): string {
  return tr(`type.${type}`);
}

export type Parsed = { ok: true; value: FieldValue } | { ok: false; error: string };

const ok = (value: FieldValue): Parsed => ({ ok: true, value });
const fail = (error: string): Parsed => ({ ok: false, error });

/** How the page's language writes a number and a date (the examples of hints and refusals). */
export const numberExample = (): string => formatLocaleNumber(1234.5, pageLocale());
export const dateExample = (): string => formatLocaleDate('2026-12-31', pageLocale());

/**
 * What a text-like input (text, cells, number, phone, date) holds, as the value the procedures
 * take: numbers and dates as the page's language writes them (`1.234,5`, `31.12.2026` in German,
 * issue 42.6), sent in the API's form (1234.5, `2026-12-31`). Empty clears the field (null).
 */
export function parseTextInput(type: FieldType, raw: string): Parsed {
  if (type === 'text' || type === 'cells') {
    if (raw.trim() === '') return ok(null);
    return raw.length > MAX_TEXT_LENGTH
      ? fail(tr('edit.error_text_long', { max: MAX_TEXT_LENGTH }))
      : ok(raw);
  }
  const s = raw.trim();
  if (s === '') return ok(null);
  if (type === 'number') {
    const n = parseLocaleNumber(s, pageLocale());
    return n === null ? fail(tr('edit.error_number', { example: numberExample() })) : ok(n);
  }
  if (type === 'phone') {
    return PHONE_PATTERN.test(s) ? ok(s) : fail(tr('edit.error_phone'));
  }
  if (type === 'date') {
    const date = parseLocaleDate(s, pageLocale());
    return date === null ? fail(tr('edit.error_date', { example: dateExample() })) : ok(date);
  }
  return fail(tr('edit.error_no_text'));
}

/** The value of a field as the page shows it, from what signing.open returned. */
export function fromStored(field: Pick<SigningField, 'type' | 'options'>, value: unknown): FieldValue {
  if (value === null || value === undefined || value === '') return null;
  switch (field.type) {
    case 'checkbox':
      return value === true || value === 'true';
    case 'number':
      return typeof value === 'number' ? value : Number.isFinite(Number(value)) ? Number(value) : null;
    case 'multiple':
      return Array.isArray(value) ? value.map(String) : [String(value)];
    case 'file': {
      const f = value as Partial<FileValue>;
      return f && typeof f === 'object' && typeof f.data === 'string'
        ? { name: String(f.name ?? 'file'), type: String(f.type ?? 'application/octet-stream'), data: f.data }
        : null;
    }
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** A picture value (signature, initials, image, stamp): a whole PNG or JPEG data: URI. */
export function isImageValue(value: FieldValue | undefined): value is string {
  return isImageDataUri(value);
}

/** Short words for a value: what a screen reader says and what a small field shows. */
export function describeValue(
  field: Pick<SigningField, 'type'> & { format?: SigningField['format'] },
  value: FieldValue | undefined,
): string {
  if (!isFilled(value)) return tr('value.empty');
  switch (field.type) {
    case 'number':
      // Issue 46: with its format's prefix and suffix, as the sealed PDF draws it.
      return `${field.format?.prefix ?? ''}${valueText(field, value)}${field.format?.suffix ?? ''}`;
    case 'checkbox':
      return tr('value.checked');
    case 'signature':
    case 'initials':
      return field.type === 'signature' ? tr('value.signed') : tr('value.initialled');
    case 'image':
    case 'stamp':
      return tr('value.image_added');
    case 'file':
      return tr('value.file', { name: (value as FileValue).name });
    case 'multiple':
      return (value as string[]).join(', ');
    default:
      return valueText(field, value);
  }
}

/** A text-like value as the signer writes it: numbers and dates in the page's language. */
export function valueText(field: Pick<SigningField, 'type'>, value: FieldValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (field.type === 'number' && typeof value === 'number') return formatLocaleNumber(value, pageLocale());
  if (field.type === 'date' && typeof value === 'string') return formatLocaleDate(value, pageLocale());
  return String(value);
}

/** Fields in reading order of their first area (the order of the tab stops and of Next field). */
export function orderFields<T extends Pick<SigningField, 'areas'>>(fields: readonly T[]): T[] {
  return fields
    .map((f, i) => ({ f, i }))
    .sort((a, b) => {
      const aa = a.f.areas[0];
      const ba = b.f.areas[0];
      if (!aa || !ba) return aa ? -1 : ba ? 1 : a.i - b.i;
      return compareAreas(aa, ba) || a.i - b.i;
    })
    .map(({ f }) => f);
}

type Values = ReadonlyMap<string, FieldValue>;

/** Required fields the signer still has to fill, in reading order. */
export function missingRequired<T extends SigningField>(ordered: readonly T[], values: Values): T[] {
  return ordered.filter((f) => f.required && !f.prefilled && !isFilled(values.get(f.id)));
}

/**
 * The field Next field moves to (issue 42.7: optional fields are visited too): the next empty
 * field the signer fills after `afterId` in reading order, required or optional; past the last
 * one it wraps around to the first required field still empty (an optional field left empty is
 * not visited again). Without `afterId`, the first empty field. Undefined when every required
 * field is filled.
 */
export function nextField<T extends SigningField>(
  ordered: readonly T[],
  values: Values,
  afterId?: string | null,
): T | undefined {
  const todo = missingRequired(ordered, values);
  if (!todo.length) return undefined;
  const empty = ordered.filter((f) => !f.prefilled && !isFilled(values.get(f.id)));
  if (!afterId) return empty[0];
  const start = ordered.findIndex((f) => f.id === afterId);
  return empty.find((f) => ordered.indexOf(f) > start) ?? todo[0];
}

/**
 * The `values` object for signing.saveValues / signing.complete: keyed by field name, only the
 * fields this signer fills (prefilled ones are the sender's), null for cleared ones.
 */
export function valuesByName(
  fields: readonly SigningField[],
  values: Values,
  only?: ReadonlySet<string>,
): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const f of fields) {
    if (f.prefilled || (only && !only.has(f.id))) continue;
    const v = values.get(f.id);
    out[f.name] = isFilled(v) ? (v as FieldValue) : f.type === 'checkbox' && v === false ? false : null;
  }
  return out;
}

/** "Jane Q. Doe" -> "JQD" (the typed default for initials). */
export function initialsOf(name: string): string {
  return name
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('')
    .slice(0, 4);
}

/** The redirect after signing, only for http(s) addresses. */
export function safeRedirect(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}
