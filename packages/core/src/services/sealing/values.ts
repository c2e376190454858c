import type { SignerRow } from '@esign/db';
import { effectiveValue, formatLocaleDate, formatLocaleNumber, formIssues } from '@esign/domain';
import type { SealValue } from '@esign/pdf';
import { sha256Hex } from '../../crypto.ts';
import type { RequestSnapshot, SnapshotField } from '../request-model.ts';
import { formValuesOf, hasFormLogic } from '../signing/form-logic.ts';

// The values drawn into the sealed documents and shown in the audit trail.

/** The value a signer gave a field: what they entered, else what the sender prefilled (@esign/domain). */
export { effectiveValue };

/** Which signer fills a field: the one holding its role (the snapshot always names a role). */
export function signerFor(field: SnapshotField, signers: SignerRow[]): SignerRow | undefined {
  return signers.find((s) => s.role === field.role);
}

function isFileValue(v: unknown): v is { name: string; type?: string; data?: string } {
  return (
    !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { name?: unknown }).name === 'string'
  );
}

/** A value as drawn in the sealed document (files by name, lists as strings), or null when empty. */
export function sealValueOf(type: SnapshotField['type'], value: unknown): SealValue['value'] {
  if (value === null || value === undefined || value === '') return null;
  if (type === 'file') {
    if (isFileValue(value)) return value.name;
    if (Array.isArray(value)) return value.map((v) => (isFileValue(v) ? v.name : String(v)));
    return String(value);
  }
  if (type === 'multiple') return Array.isArray(value) ? value.map(String) : [String(value)];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(String);
  return JSON.stringify(value);
}

/**
 * A number or date as the sealed document draws it (issue 42.6): as its signer writes it, in
 * their language (`1.234,5` and `31.12.2026` for a German signer); stored and sent canonically.
 */
function localeValueOf(
  type: SnapshotField['type'],
  value: SealValue['value'],
  locale: string | undefined,
): SealValue['value'] {
  if (!locale) return value;
  if (type === 'number' && typeof value === 'number') return formatLocaleNumber(value, locale);
  if (type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return formatLocaleDate(value, locale);
  }
  return value;
}

/**
 * The values drawn into one snapshot document: every field with a value, in its areas there;
 * numbers and dates in the language of the signer who gave them (`locales`, by signer id).
 */
export function sealValuesFor(
  snapshot: RequestSnapshot,
  documentIndex: number,
  who: { signers: SignerRow[]; locales?: ReadonlyMap<number, string> },
): SealValue[] {
  const { signers, locales } = who;
  const out: SealValue[] = [];
  // Issue 46: a field its conditions hide is not drawn, whatever value it holds.
  const hidden = hiddenFields(snapshot, signers);
  for (const field of snapshot.fields) {
    if (hidden.has(field.name)) continue;
    const areas = field.areas
      .filter((a) => (a.document ?? 0) === documentIndex)
      .map(({ page, x, y, w, h, font_size }) => ({
        page,
        x,
        y,
        w,
        h,
        ...(font_size ? { fontSize: font_size } : {}),
      }));
    if (areas.length === 0) continue;
    const signer = signerFor(field, signers);
    if (!signer) continue;
    const value = sealValueOf(field.type, effectiveValue(signer, field.name));
    if (value === null) continue;
    const drawn = localeValueOf(field.type, value, locales?.get(signer.id));
    out.push({ type: field.type, areas, value: withNumberFormat(field, drawn) });
  }
  return out;
}

/** A number drawn with its field's format prefix and suffix (issue 46), such as `€ 1.234,50`. */
function withNumberFormat(field: SnapshotField, value: SealValue['value']): SealValue['value'] {
  if (field.type !== 'number' || !field.format || value === null || Array.isArray(value)) return value;
  return `${field.format.prefix ?? ''}${String(value)}${field.format.suffix ?? ''}`;
}

/** Fields hidden by their conditions given every signer's values, with the fields whose answers hid them. */
export function hiddenFields(
  snapshot: RequestSnapshot,
  signers: readonly SignerRow[],
): Map<string, string[]> {
  if (!hasFormLogic(snapshot)) return new Map();
  const { state } = formIssues(snapshot.fields, formValuesOf(snapshot, signers), { role: '' });
  return new Map(
    Object.entries(state.fields)
      .filter(([, s]) => !s.visible)
      .map(([name, s]) => [name, s.hiddenBy]),
  );
}

/** A value as the audit trail shows it: pictures stay data URIs, files become name, size and hash. */
export function auditValue(value: unknown): unknown {
  if (isFileValue(value)) {
    const data = typeof value.data === 'string' ? value.data.replace(/^data:[^,]*,/, '') : '';
    const bytes = Buffer.from(data, 'base64');
    const about = [value.type, `${bytes.length} bytes`, `SHA-256 ${sha256Hex(bytes)}`]
      .filter(Boolean)
      .join(', ');
    return `${value.name} (${about})`;
  }
  if (Array.isArray(value)) return value.map((v) => (isFileValue(v) ? auditValue(v) : v));
  return value;
}
