import { CreateApiKeyInput } from '@esign/core/schemas/api-keys';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useChangeFeedback } from '../../feedback.ts';
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
      title="New key"
      onSubmit={submit}
      error={create.error}
      busy={create.isPending}
      submitLabel="Create key"
    >
      <div className="grid-2">
        <TextField
          label="Name"
          placeholder="e.g. Zapier, CRM sync"
          error={form.formState.errors.name?.message}
          {...form.register('name')}
        />
        <TextField label="Expires on (optional)" type="date" {...form.register('expires_on')} />
        <SelectField
          label="Data"
          options={[
            { value: 'live', label: 'Live (svc_live_…): real requests, uses credits' },
            { value: 'test', label: 'Test (svc_test_…): test data only' },
          ]}
          {...form.register('environment')}
        />
        <SelectField
          label="Permission"
          options={[
            { value: 'full', label: 'Full access' },
            { value: 'read', label: 'Read only (GET, verify, feedback)' },
          ]}
          {...form.register('permission')}
        />
      </div>
    </CardForm>
  );
}
