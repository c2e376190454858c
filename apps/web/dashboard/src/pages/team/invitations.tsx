import { useMutation } from '@tanstack/react-query';
import { useChangeFeedback } from '../../feedback.ts';
import { formatDate } from '../../format.ts';
import { msg, t } from '../../messages/index.ts';
import type { Outputs } from '../../router-types.ts';
import { trpc } from '../../trpc.ts';
import { Badge, Button } from '../../ui.tsx';

type Invitation = Outputs['members']['list']['invitations'][number];

/** Invitations not answered yet; admins can withdraw them. */
export function Invitations({ invitations, admin }: { invitations: Invitation[]; admin: boolean }) {
  const { announce } = useChangeFeedback(trpc.members.list.queryKey());
  const revokeInvitation = useMutation(
    trpc.members.revokeInvitation.mutationOptions(announce(msg('team.invitations.withdrawn'))),
  );
  return (
    <>
      <h2>{msg('team.invitations.title')}</h2>
      {invitations.length === 0 ? (
        <p className="hint">{msg('team.invitations.none')}</p>
      ) : (
        <ul className="rows">
          {invitations.map((i) => (
            <li key={i.id} className="row">
              <div className="row-main">
                <strong>{i.email}</strong> <Badge>{t('team.role', { role: i.role })}</Badge>
                <div className="hint">
                  {i.invited_by
                    ? t('team.invitations.details', { inviter: i.invited_by, date: formatDate(i.expires_at) })
                    : t('team.invitations.details_unknown', { date: formatDate(i.expires_at) })}
                </div>
              </div>
              {admin ? (
                <div className="row-actions">
                  <Button small onClick={() => revokeInvitation.mutate({ id: i.id })}>
                    {msg('team.invitations.withdraw')}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
