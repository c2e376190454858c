import { CreateApiKeyInput } from '@esign/core/schemas/api-keys';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useChangeFeedback } from '../../feedback.ts';
import { msg, t } from '../../messages/index.ts';
import type { Session } from '../../session.tsx';
import { trpc } from '../../trpc.ts';
import { CardForm, SelectField, TextField } from '../../ui.tsx';

// The form's expiry is a date (end of that day, local time); the procedure takes a date-time.
const Form = CreateApiKeyInput.omit({ expires_at: true }).extend({ expires_on: z.string().optional() });

/** Name, expiry, live or test data, and permission of a new key; `onCreated` gets the secret. */
export function NewKeyForm({ session, onCreated }: { session: Session; onCreated: (key: string) => void }) {
  const { refresh } = useChangeFeedback(trpc.apiKeys.list.queryKey());
  const form = useForm<z.input<typeof Form>>({
    resolver: zodResolver(Form),
    defaultValues: { environment: session.environment, permission: 'full', name: '', expires_on: '' },
  });
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: async (k) => {
        onCreated(k.key);
        form.reset();
        await refresh();
      },
    }),
  );
  const submit = form.handleSubmit(({ expires_on, ...v }) => {
    const expires_at = expires_on ? new Date(`${expires_on}T23:59:59`).toISOString() : null;
    create.mutate({ ...v, expires_at });
  });
  return (
    <CardForm
      id="new-key"
      title={msg('keys.new.title')}
      onSubmit={submit}
      error={create.error}
      busy={create.isPending}
      submitLabel={msg('keys.new.submit')}
    >
      <div className="grid-2">
        <TextField
          label={msg('keys.new.name')}
          placeholder={msg('keys.new.name_example')}
          error={form.formState.errors.name?.message}
          {...form.register('name')}
        />
        <TextField label={msg('keys.new.expires')} type="date" {...form.register('expires_on')} />
        <SelectField
          label={msg('keys.new.data')}
          options={[
            { value: 'live', label: t('keys.new.live', { prefix: 'svc_live_…' }) },
            { value: 'test', label: t('keys.new.test', { prefix: 'svc_test_…' }) },
          ]}
          {...form.register('environment')}
        />
        <SelectField
          label={msg('keys.new.permission')}
          options={[
            { value: 'full', label: msg('keys.new.full') },
            { value: 'read', label: msg('keys.new.read') },
          ]}
          {...form.register('permission')}
        />
      </div>
    </CardForm>
  );
}
