import { useMutation } from '@tanstack/react-query';
import { useChangeFeedback } from '../../feedback.ts';
import { formatDate } from '../../format.ts';
import type { Outputs } from '../../router-types.ts';
import { trpc } from '../../trpc.ts';
import { Badge, Button } from '../../ui.tsx';

type Invitation = Outputs['members']['list']['invitations'][number];

/** Invitations not answered yet; admins can withdraw them. */
export function Invitations({ invitations, admin }: { invitations: Invitation[]; admin: boolean }) {
  const { announce } = useChangeFeedback(trpc.members.list.queryKey());
  const revokeInvitation = useMutation(
    trpc.members.revokeInvitation.mutationOptions(announce('Invitation withdrawn')),
  );
  return (
    <>
      <h2>Pending invitations</h2>
      {invitations.length === 0 ? (
        <p className="hint">No invitations waiting for an answer.</p>
      ) : (
        <ul className="rows">
          {invitations.map((i) => (
            <li key={i.id} className="row">
              <div className="row-main">
                <strong>{i.email}</strong> <Badge>{i.role}</Badge>
                <div className="hint">
                  Invited by {i.invited_by ?? 'an admin'} · expires {formatDate(i.expires_at)}
                </div>
              </div>
              {admin ? (
                <div className="row-actions">
                  <Button small onClick={() => revokeInvitation.mutate({ id: i.id })}>
                    Withdraw
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
