import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { msg } from '../messages/index.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { CardForm, Loading } from '../ui.tsx';
import { CopiesFields } from './copies-fields.tsx';
import { addressList, CopiesFormSchema, type CopiesValues } from './copies-form.ts';

// Issue 34: the account's default CC and notify addresses, added to every request it sends (the
// Send and Bulk send pages, the API, MCP, public links). Admins change them; everyone sees them.

export function CopyDefaultsForm({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const defaults = useQuery(trpc.recipients.defaults.queryOptions());
  const form = useForm<CopiesValues>({
    resolver: zodResolver(CopiesFormSchema),
    values: defaults.data
      ? { cc: defaults.data.cc.join(', '), notify: defaults.data.notify.join(', ') }
      : undefined,
  });
  const save = useMutation(
    trpc.recipients.setDefaults.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.recipients.defaults.queryKey() }),
    }),
  );
  if (defaults.isPending) return <Loading />;
  const admin = session.user.role === 'admin';
  return (
    <CardForm
      id="copy-defaults"
      title={msg('copies.defaults.title')}
      intro={
        <p className="hint">
          {msg('copies.defaults.intro')}
          {admin ? '' : ` ${msg('copies.defaults.admin_only')}`}
        </p>
      }
      onSubmit={form.handleSubmit((v) =>
        save.mutate({ cc: addressList(v.cc), notify: addressList(v.notify) }),
      )}
      error={save.error ?? defaults.error}
      busy={save.isPending}
      submitLabel={
        save.isSuccess && !form.formState.isDirty ? msg('copies.defaults.saved') : msg('copies.defaults.save')
      }
    >
      <CopiesFields
        register={form.register}
        errors={form.formState.errors}
        showDefaults={false}
        legend={msg('copies.defaults.legend')}
      />
    </CardForm>
  );
}
