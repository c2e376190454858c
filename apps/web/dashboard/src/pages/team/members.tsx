import { useMutation } from '@tanstack/react-query';
import { useChangeFeedback } from '../../feedback.ts';
import { formatDate } from '../../format.ts';
import type { Outputs } from '../../router-types.ts';
import { trpc } from '../../trpc.ts';
import { Badge, Button, Confirm } from '../../ui.tsx';

type Member = Outputs['members']['list']['members'][number];
type Role = 'admin' | 'member' | 'viewer';

/** An admin's controls on one member: the role, and removal. */
function MemberActions({
  member: m,
  changingRole,
  onRole,
  onRemove,
}: {
  member: Member;
  changingRole: boolean;
  onRole: (role: Role) => void;
  onRemove: () => void;
}) {
  return (
    <div className="row-actions">
      <label className="sr-only" htmlFor={`role-${m.id}`}>
        Role of {m.email}
      </label>
      <select
        id={`role-${m.id}`}
        value={m.role}
        disabled={changingRole}
        onChange={(e) => onRole(e.target.value as Role)}
      >
        <option value="admin">Admin</option>
        <option value="member">Member</option>
        <option value="viewer">Viewer</option>
      </select>
      <Confirm
        trigger={
          <Button small variant="danger" aria-label={`Remove ${m.email}`}>
            Remove
          </Button>
        }
        title={`Remove ${m.name || m.email}?`}
        description="They are signed out everywhere and their API keys stop working. What they created stays."
        confirmLabel="Remove member"
        onConfirm={onRemove}
      />
    </div>
  );
}

/** The people who can sign in; admins change their roles or remove them. */
export function Members({ members, you, admin }: { members: Member[]; you: number; admin: boolean }) {
  const { announce } = useChangeFeedback(trpc.members.list.queryKey());
  const changeRole = useMutation(trpc.members.changeRole.mutationOptions(announce('Role changed')));
  const remove = useMutation(trpc.members.remove.mutationOptions(announce('Member removed')));
  return (
    <>
      <h2 id="members">Members ({members.length})</h2>
      <ul className="rows">
        {members.map((m) => (
          <li key={m.id} className="row">
            <div className="row-main">
              <strong>{m.name || m.email}</strong> {m.id === you ? <Badge tone="info">you</Badge> : null}
              <div className="hint">
                {m.email} · since {formatDate(m.created_at)}
              </div>
            </div>
            {admin ? (
              <MemberActions
                member={m}
                changingRole={changeRole.isPending}
                onRole={(role) => changeRole.mutate({ id: m.id, role })}
                onRemove={() => remove.mutate({ id: m.id })}
              />
            ) : (
              <Badge>{m.role}</Badge>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
