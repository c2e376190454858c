import type { SignerRow } from '@esign/db';
import {
  effectiveValues,
  type FieldValue,
  formIssues,
  isImageFieldType,
  type LogicField,
} from '@esign/domain';
import type { MessageKey } from '@esign/i18n';
import { CoreError } from '../../errors.ts';
import type { RequestSnapshot, SnapshotField } from '../request-model.ts';

// Issue 46 on the server: a submission is checked with the same evaluator the signing page runs
// (@esign/domain formIssues), over every signer's values, across roles and documents.

const LOGIC_KEYS = ['show_when', 'required_when', 'formula', 'format', 'validation'] as const;

export function hasFormLogic(snapshot: RequestSnapshot): boolean {
  return snapshot.fields.some((f) => LOGIC_KEYS.some((k) => f[k] !== undefined));
}

/** The snapshot's fields as the evaluator reads them. */
function logicFields(snapshot: RequestSnapshot): LogicField[] {
  return snapshot.fields;
}

/**
 * Every field's value by name: each field's from the signer holding its role (what they entered,
 * else the sender's prefill); `own` replaces one signer's values (the submission being checked).
 */
export function formValuesOf(
  snapshot: RequestSnapshot,
  signers: readonly SignerRow[],
  own?: { role: string; values: Record<string, FieldValue> },
): Record<string, FieldValue> {
  const byRole = new Map<string, Record<string, FieldValue>>();
  // Only what signed signers gave counts (what the signing page sees of them, `filled_by_others`).
  for (const s of signers) if (s.role && s.status === 'signed') byRole.set(s.role, effectiveValues(s));
  if (own) byRole.set(own.role, own.values);
  const out: Record<string, FieldValue> = {};
  for (const f of snapshot.fields) {
    const v = byRole.get(f.role)?.[f.name];
    if (v !== undefined && !Object.hasOwn(out, f.name)) out[f.name] = v;
  }
  return out;
}

/** What the audit trail keeps of a checked submission: rules in force, hidden fields and why, computed values. */
export interface FormAudit {
  rules: Record<string, Record<string, unknown>>;
  hidden: Record<string, string[]>;
  computed: Record<string, number | null>;
  submitted: Record<string, FieldValue>;
}

function auditOf(
  fields: SnapshotField[],
  state: ReturnType<typeof formIssues>['state'],
  values: Record<string, FieldValue>,
): FormAudit {
  const audit: FormAudit = { rules: {}, hidden: {}, computed: {}, submitted: {} };
  for (const f of fields) {
    const rules = Object.fromEntries(LOGIC_KEYS.filter((k) => f[k] !== undefined).map((k) => [k, f[k]]));
    if (Object.keys(rules).length) audit.rules[f.name] = rules;
    const s = state.fields[f.name];
    if (s && !s.visible) audit.hidden[f.name] = s.hiddenBy;
    if (s?.computed !== undefined && s.visible) audit.computed[f.name] = s.computed;
    const v = values[f.name];
    if (s?.visible && v !== undefined && v !== null && !isImageFieldType(f.type) && f.type !== 'file')
      audit.submitted[f.name] = v;
  }
  return audit;
}

/**
 * Checks one signer's submission (issue 46): 422 invalid_request naming the first field that is
 * required and empty, hidden and filled (`entered`), computed differently, or refused by its
 * validation; the signer's message in their language. Returns the values to store (hidden fields
 * dropped, formulas computed) and the audit record.
 */
export function checkSubmission(
  snapshot: RequestSnapshot,
  signers: readonly SignerRow[],
  sub: { role: string; values: Record<string, FieldValue>; entered: Record<string, unknown>; locale: string },
): { values: Record<string, FieldValue>; audit: FormAudit } {
  const fields = logicFields(snapshot);
  const all = formValuesOf(snapshot, signers, { role: sub.role, values: sub.values });
  const { state, issues } = formIssues(fields, all, {
    role: sub.role,
    entered: sub.entered as never,
    locale: sub.locale,
  });
  const first = issues[0];
  if (first) {
    throw new CoreError('invalid_request', `Invalid value for field ${first.english}`, {
      messageKey: first.key as MessageKey,
      messageValues: first.values,
    });
  }
  const own = snapshot.fields.filter((f) => f.role === sub.role);
  const values: Record<string, FieldValue> = { ...sub.values };
  for (const f of own) {
    const s = state.fields[f.name]!;
    if (!s.visible) delete values[f.name];
    else if (s.computed !== undefined) values[f.name] = s.computed;
  }
  return { values, audit: auditOf(own, state, all) };
}
