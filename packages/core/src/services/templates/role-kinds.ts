import { PARTICIPANT_KINDS, type ParticipantKind } from '@esign/domain';
import { CoreError } from '../../errors.ts';

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
