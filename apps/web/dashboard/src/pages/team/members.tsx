import { useMutation } from '@tanstack/react-query';
import { useChangeFeedback } from '../../feedback.ts';
import { formatDate } from '../../format.ts';
import { msg, t } from '../../messages/index.ts';
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
        {t('team.members.role_of', { email: m.email })}
      </label>
      <select
        id={`role-${m.id}`}
        value={m.role}
        disabled={changingRole}
        onChange={(e) => onRole(e.target.value as Role)}
      >
        <option value="admin">{msg('team.members.role_admin')}</option>
        <option value="member">{msg('team.members.role_member')}</option>
        <option value="viewer">{msg('team.members.role_viewer')}</option>
      </select>
      <Confirm
        trigger={
          <Button small variant="danger" aria-label={t('team.members.remove_label', { email: m.email })}>
            {msg('team.members.remove')}
          </Button>
        }
        title={t('team.members.remove_title', { name: m.name || m.email })}
        description={msg('team.members.remove_description')}
        confirmLabel={msg('team.members.remove_confirm')}
        onConfirm={onRemove}
      />
    </div>
  );
}

/** The people who can sign in; admins change their roles or remove them. */
export function Members({ members, you, admin }: { members: Member[]; you: number; admin: boolean }) {
  const { announce } = useChangeFeedback(trpc.members.list.queryKey());
  const changeRole = useMutation(
    trpc.members.changeRole.mutationOptions(announce(msg('team.members.role_changed'))),
  );
  const remove = useMutation(trpc.members.remove.mutationOptions(announce(msg('team.members.removed'))));
  return (
    <>
      <h2 id="members">{t('team.members.title', { count: members.length })}</h2>
      <ul className="rows">
        {members.map((m) => (
          <li key={m.id} className="row">
            <div className="row-main">
              <strong>{m.name || m.email}</strong>{' '}
              {m.id === you ? <Badge tone="info">{msg('team.members.you')}</Badge> : null}
              <div className="hint">
                {t('team.members.details', { email: m.email, date: formatDate(m.created_at) })}
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
              <Badge>{t('team.role', { role: m.role })}</Badge>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
