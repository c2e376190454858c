import type { FieldValue, SigningField } from './types.ts';

// How each signature or initials picture was made on this page (drawn, typed, uploaded), kept by
// the picture itself so a value reused in another field keeps its method. Sent with
// signing.complete for the audit trail; values made in an earlier visit have no method here.

export type SignatureMethod = 'drawn' | 'typed' | 'uploaded';

const made = new Map<string, SignatureMethod>();

/** Remembers how `value` was made; returns it unchanged. */
export function remember<T>(value: T, method: SignatureMethod): T {
  if (typeof value === 'string') made.set(value, method);
  return value;
}

/** `signature_methods` for signing.complete: field name → method, for the pictures made here. */
export function signatureMethods(
  fields: readonly SigningField[],
  values: ReadonlyMap<string, FieldValue | undefined>,
): Record<string, SignatureMethod> {
  const out: Record<string, SignatureMethod> = {};
  for (const f of fields) {
    if (f.type !== 'signature' && f.type !== 'initials') continue;
    const v = values.get(f.id);
    const method = typeof v === 'string' ? made.get(v) : undefined;
    if (method) out[f.name] = method;
  }
  return out;
}
