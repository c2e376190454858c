import { InviteMemberInput } from '@esign/core/schemas/members';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useChangeFeedback } from '../../feedback.ts';
import { trpc } from '../../trpc.ts';
import { CardForm, SelectField, TextField } from '../../ui.tsx';

const ROLE_OPTIONS = [
  { value: 'admin', label: 'Admin: everything, including keys, webhooks and billing' },
  { value: 'member', label: 'Member: templates and requests' },
  { value: 'viewer', label: 'Viewer: read only' },
];

/** An admin invites someone by email, with a role. */
export function InviteForm() {
  const { toast, refresh } = useChangeFeedback(trpc.members.list.queryKey());
  const form = useForm<z.infer<typeof InviteMemberInput>>({
    resolver: zodResolver(InviteMemberInput),
    defaultValues: { email: '', role: 'member' },
  });
  const invite = useMutation(
    trpc.members.invite.mutationOptions({
      onSuccess: async (inv) => {
        toast(`Invitation emailed to ${inv.email}`);
        form.reset({ email: '', role: inv.role });
        await refresh();
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
