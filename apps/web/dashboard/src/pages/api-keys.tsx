import { CreateApiKeyInput } from '@esign/core/schemas/api-keys';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { formatAgo, formatDate } from '../format.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import {
  Badge,
  Button,
  CardForm,
  Confirm,
  CopyButton,
  EmptyState,
  ErrorNote,
  Loading,
  Modal,
  PageHeader,
  SelectField,
  TextField,
  useToast,
} from '../ui.tsx';
import { AdminOnly } from './admin-only.tsx';

// The form's expiry is a date (end of that day, local time); the procedure takes a date-time.
const Form = CreateApiKeyInput.omit({ expires_at: true }).extend({ expires_on: z.string().optional() });

function CreateKey({ session, onCreated }: { session: Session; onCreated: (key: string) => void }) {
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof Form>>({
    resolver: zodResolver(Form),
    defaultValues: { environment: session.environment, permission: 'full', name: '', expires_on: '' },
  });
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: async (k) => {
        onCreated(k.key);
        form.reset();
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
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

export function ApiKeysPage({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [secret, setSecret] = useState<string | null>(null);
  const keys = useQuery({ ...trpc.apiKeys.list.queryOptions(), enabled: session.user.role === 'admin' });
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: async () => {
        toast('Key revoked: requests with it now get 401');
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
      onError: (err) => toast(err.message, 'bad'),
    }),
  );
  if (session.user.role !== 'admin') return <AdminOnly title="API keys" what="API keys" />;
  const active = keys.data?.filter((k) => !k.revoked_at) ?? [];
  const revoked = keys.data?.filter((k) => k.revoked_at) ?? [];
  return (
    <>
      <PageHeader title="API keys">
        Keys let your software use the REST API and MCP endpoint. A key acts as the person who created it.
      </PageHeader>
      <CreateKey session={session} onCreated={setSecret} />
      <Modal
        open={secret !== null}
        onOpenChange={(o) => !o && setSecret(null)}
        title="Your new API key"
        description="Copy it now and store it somewhere safe: it will not be shown again."
      >
        <div className="secret">
          <code data-testid="new-key">{secret}</code>
          {secret ? <CopyButton value={secret} label="Copy key" /> : null}
        </div>
        <div className="form-actions">
          <Button variant="primary" onClick={() => setSecret(null)}>
            I have stored it
          </Button>
        </div>
      </Modal>
      <section aria-labelledby="active-keys">
        <h2 id="active-keys">Active keys</h2>
        {keys.isPending ? <Loading /> : null}
        <ErrorNote error={keys.error} />
        {keys.data && active.length === 0 ? (
          <EmptyState title="No active keys">
            Create one above, then send it as Authorization: Bearer &lt;key&gt;.
          </EmptyState>
        ) : null}
        {active.length > 0 ? (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Access</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {active.map((k) => (
                  <tr key={k.id}>
                    <td data-label="Name">{k.name}</td>
                    <td data-label="Key">
                      <code>{k.prefix}…</code>
                    </td>
                    <td data-label="Access">
                      <Badge tone={k.environment === 'test' ? 'warn' : 'info'}>{k.environment}</Badge>{' '}
                      <Badge>{k.permission === 'full' ? 'full access' : 'read only'}</Badge>
                    </td>
                    <td data-label="Owner">{k.user.email}</td>
                    <td data-label="Last used">{formatAgo(k.last_used_at)}</td>
                    <td data-label="Expires">{k.expires_at ? formatDate(k.expires_at) : 'never'}</td>
                    <td>
                      <Confirm
                        trigger={
                          <Button small variant="danger" aria-label={`Revoke key ${k.name}`}>
                            Revoke
                          </Button>
                        }
                        title={`Revoke “${k.name}”?`}
                        description="Software using this key stops working at once. This cannot be undone."
                        confirmLabel="Revoke key"
                        onConfirm={() => revoke.mutate({ id: k.id })}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      {revoked.length > 0 ? (
        <details className="card">
          <summary>Revoked keys ({revoked.length})</summary>
          <ul className="plain">
            {revoked.map((k) => (
              <li key={k.id}>
                {k.name} <code>{k.prefix}…</code> — revoked {formatDate(k.revoked_at)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
