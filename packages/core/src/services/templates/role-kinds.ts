import { PARTICIPANT_KINDS, type ParticipantKind } from '@esign/domain';
import { CoreError } from '../../errors.ts';
import { assignRoles, DEFAULT_ROLE, type FieldSpec } from './fields.ts';

// Issue 47 (docs/roles.md): the part each template role plays by default. Stored by position like
// `roles` (which are renamed by position and never removed), shown and taken by name:
// `role_kinds: { "Manager": "approver" }`. Approver and viewer roles take no fields.

/** The stored kinds as long as `roles` (a missing entry is a signer). */
function kindsByPosition(roles: string[], stored: unknown): ParticipantKind[] {
  const list = Array.isArray(stored) ? stored : [];
  return roles.map((_, i) => (PARTICIPANT_KINDS.includes(list[i]) ? (list[i] as ParticipantKind) : 'signer'));
}

/** What is stored: trailing signers dropped (a template without kinds stores `[]`). */
function toStored(kinds: ParticipantKind[]): ParticipantKind[] {
  const out = [...kinds];
  while (out.length && out.at(-1) === 'signer') out.pop();
  return out;
}

/** The Template object's `role_kinds`: only roles that are not signers; undefined when none. */
export function roleKindsOutput(
  roles: string[],
  stored: unknown,
): Record<string, 'approver' | 'viewer'> | undefined {
  const kinds = kindsByPosition(roles, stored);
  const entries = roles.flatMap((r, i) => (kinds[i] === 'signer' ? [] : [[r, kinds[i]] as const]));
  return entries.length ? (Object.fromEntries(entries) as Record<string, 'approver' | 'viewer'>) : undefined;
}

/** The kind a template gives a role (signer when it names none). */
export function roleKindOf(
  template: { roles: string[]; role_kinds?: unknown },
  role: string,
): ParticipantKind {
  const i = template.roles.indexOf(role);
  return i < 0 ? 'signer' : (kindsByPosition(template.roles, template.role_kinds)[i] ?? 'signer');
}

/**
 * The kinds after a change: `input` (role name → kind) over the stored ones; a name that is not a
 * role is 422 invalid_parameter; a field on an approver or viewer role is 422 invalid_field.
 */
export function nextRoleKinds(
  roles: string[],
  change: {
    stored: unknown;
    input?: Record<string, ParticipantKind> | undefined;
    fields: { name?: string | null | undefined; role?: string | undefined }[];
  },
): ParticipantKind[] {
  const kinds = kindsByPosition(roles, change.stored);
  for (const [role, kind] of Object.entries(change.input ?? {})) {
    const i = roles.indexOf(role);
    if (i < 0)
      throw new CoreError(
        'invalid_parameter',
        `role_kinds: "${role}" is not a role of this template (${roles.join(', ')})`,
      );
    kinds[i] = kind;
  }
  for (const f of change.fields) {
    if (!f.role) continue;
    const kind = kinds[roles.indexOf(f.role)];
    if (kind && kind !== 'signer') {
      throw new CoreError(
        'invalid_field',
        `Field "${f.name ?? ''}": role "${f.role}" is ${kind === 'approver' ? 'an approver' : 'a viewer'} role, which fills no field; place it on another role or make "${f.role}" a signer role`,
      );
    }
  }
  return toStored(kinds);
}

/** Issue 47: a role tag of an uploaded document (`{{role=Manager;kind=approver}}`, packages/pdf tags.ts). */
export interface DeclaredRole {
  role: string;
  kind: ParticipantKind;
  /** how many of the detected fields come before it */
  at: number;
}

/**
 * The roles, fields and kinds after text tags: each role stands where its first tag does (a role
 * tag or a field's), after the template's `existing` roles; a role tag gives its role's kind; a
 * field without a role goes to the first role that signs (a new `Signer` role when none does).
 * A field on an approver or viewer role is 422 invalid_field, as in a PATCH.
 */
export function rolesFromTags(
  existing: { roles: string[]; role_kinds: unknown; fields: FieldSpec[] },
  fields: FieldSpec[],
  declared: DeclaredRole[],
): { roles: string[]; fields: FieldSpec[]; role_kinds: ParticipantKind[] } {
  const order = [...existing.roles];
  const add = (role: string | undefined) => role !== undefined && !order.includes(role) && order.push(role);
  const pending = [...declared].sort((a, b) => a.at - b.at);
  fields.forEach((f, i) => {
    while (pending.length && pending[0]!.at <= i) add(pending.shift()!.role);
    add(f.role);
  });
  for (const d of pending) add(d.role);
  const kindOf = new Map(order.map((r, i) => [r, kindsByPosition(order, existing.role_kinds)[i]!]));
  // The first tag naming a role's kind counts (packages/pdf warns of a later, different one).
  for (const d of [...declared].reverse()) kindOf.set(d.role, d.kind);
  let signing = order.find((r) => kindOf.get(r) === 'signer');
  if (!signing && fields.some((f) => !f.role) && order.length) {
    signing = DEFAULT_ROLE;
    add(signing);
  }
  const assigned = assignRoles(
    order,
    signing ? fields.map((f) => ({ ...f, role: f.role ?? signing })) : fields,
  );
  const kinds = assigned.roles.map((r) => kindOf.get(r) ?? 'signer');
  const role_kinds = nextRoleKinds(assigned.roles, {
    stored: kinds,
    fields: [...existing.fields, ...assigned.fields],
  });
  return { ...assigned, role_kinds };
}
