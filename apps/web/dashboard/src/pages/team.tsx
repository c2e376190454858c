import { InviteMemberInput } from '@esign/core/schemas/members';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatDate } from '../format.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import {
  Badge,
  Button,
  CardForm,
  Confirm,
  ErrorNote,
  Loading,
  PageHeader,
  SelectField,
  TextField,
  useToast,
} from '../ui.tsx';

const ROLE_OPTIONS = [
  { value: 'admin', label: 'Admin: everything, including keys, webhooks and billing' },
  { value: 'member', label: 'Member: templates and requests' },
  { value: 'viewer', label: 'Viewer: read only' },
];

function InviteForm() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useForm<z.infer<typeof InviteMemberInput>>({
    resolver: zodResolver(InviteMemberInput),
    defaultValues: { email: '', role: 'member' },
  });
  const invite = useMutation(
    trpc.members.invite.mutationOptions({
      onSuccess: async (inv) => {
        toast(`Invitation emailed to ${inv.email}`);
        form.reset({ email: '', role: inv.role });
        await queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
      },
    }),
  );
  return (
    <CardForm
      id="invite"
      title="Invite someone"
      onSubmit={form.handleSubmit((v) => invite.mutate(v))}
      error={invite.error}
      busy={invite.isPending}
      submitLabel="Send invitation"
    >
      <div className="grid-2">
        <TextField
          label="Email"
          type="email"
          error={form.formState.errors.email?.message}
          {...form.register('email')}
        />
        <SelectField label="Role" options={ROLE_OPTIONS} {...form.register('role')} />
      </div>
    </CardForm>
  );
}

export function TeamPage({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const admin = session.user.role === 'admin';
  const list = useQuery(trpc.members.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
  const onError = (e: { message: string }) => toast(e.message, 'bad');
  const changeRole = useMutation(
    trpc.members.changeRole.mutationOptions({
      onSuccess: async () => {
        toast('Role changed');
        await refresh();
      },
      onError,
    }),
  );
  const remove = useMutation(
    trpc.members.remove.mutationOptions({
      onSuccess: async () => {
        toast('Member removed');
        await refresh();
      },
      onError,
    }),
  );
  const revokeInvitation = useMutation(
    trpc.members.revokeInvitation.mutationOptions({
      onSuccess: async () => {
        toast('Invitation withdrawn');
        await refresh();
      },
      onError,
    }),
  );
  return (
    <>
      <PageHeader title="Team">
        People who can sign in to {list.data?.account.name ?? 'this account'}. Admins manage everything;
        members work with templates and requests; viewers can only look.
      </PageHeader>
      {admin ? <InviteForm /> : null}
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error} />
      {list.data ? (
        <section aria-labelledby="members">
          <h2 id="members">Members ({list.data.members.length})</h2>
          <ul className="rows">
            {list.data.members.map((m) => (
              <li key={m.id} className="row">
                <div className="row-main">
                  <strong>{m.name || m.email}</strong>{' '}
                  {m.id === session.user.id ? <Badge tone="info">you</Badge> : null}
                  <div className="hint">
                    {m.email} · since {formatDate(m.created_at)}
                  </div>
                </div>
                {admin ? (
                  <div className="row-actions">
                    <label className="sr-only" htmlFor={`role-${m.id}`}>
                      Role of {m.email}
                    </label>
                    <select
                      id={`role-${m.id}`}
                      value={m.role}
                      disabled={changeRole.isPending}
                      onChange={(e) =>
                        changeRole.mutate({ id: m.id, role: e.target.value as 'admin' | 'member' | 'viewer' })
                      }
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
                      onConfirm={() => remove.mutate({ id: m.id })}
                    />
                  </div>
                ) : (
                  <Badge>{m.role}</Badge>
                )}
              </li>
            ))}
          </ul>
          <h2>Pending invitations</h2>
          {list.data.invitations.length === 0 ? (
            <p className="hint">No invitations waiting for an answer.</p>
          ) : (
            <ul className="rows">
              {list.data.invitations.map((i) => (
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
        </section>
      ) : null}
    </>
  );
}
