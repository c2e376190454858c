import type { SignerRow } from '@esign/db';
import type { RequestSnapshot } from '../request-model.ts';
import { effectiveValue, sealValueOf } from '../sealing/values.ts';

/**
 * What other signers filled in and signed, as signing.open returns it (`filled_by_others`): in
 * sequential order the earlier signers, in parallel order everyone who has signed so far. Only
 * signed signers count: their values are final and will appear in the sealed document at exactly
 * these areas. Values are as sealing draws them (pictures as data URIs, files by name).
 */
export function filledByOthers(snapshot: RequestSnapshot, signers: SignerRow[], self: SignerRow) {
  const out = [];
  for (const other of signers) {
    if (other.id === self.id || other.status !== 'signed') continue;
    for (const field of snapshot.fields) {
      if (field.role !== other.role) continue;
      const value = sealValueOf(field.type, effectiveValue(other, field.name));
      if (value === null) continue;
      out.push({
        id: field.id,
        name: field.name,
        type: field.type,
        role: field.role,
        signer_name: other.name,
        areas: field.areas,
        value,
      });
    }
  }
  return out;
}
