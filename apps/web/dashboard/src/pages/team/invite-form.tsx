import { InviteMemberInput } from '@esign/core/schemas/members';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useChangeFeedback } from '../../feedback.ts';
import { msg, t } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { CardForm, SelectField, TextField } from '../../ui.tsx';

const ROLE_OPTIONS = [
  { value: 'admin', label: msg('team.invite.role_admin') },
  { value: 'member', label: msg('team.invite.role_member') },
  { value: 'viewer', label: msg('team.invite.role_viewer') },
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
        toast(t('team.invite.sent', { email: inv.email }));
        form.reset({ email: '', role: inv.role });
        await refresh();
      },
    }),
  );
  return (
    <CardForm
      id="invite"
      title={msg('team.invite.title')}
      onSubmit={form.handleSubmit((v) => invite.mutate(v))}
      error={invite.error}
      busy={invite.isPending}
      submitLabel={msg('team.invite.submit')}
    >
      <div className="grid-2">
        <TextField
          label={msg('team.invite.email')}
          type="email"
          error={form.formState.errors.email?.message}
          {...form.register('email')}
        />
        <SelectField label={msg('team.invite.role')} options={ROLE_OPTIONS} {...form.register('role')} />
      </div>
    </CardForm>
  );
}
