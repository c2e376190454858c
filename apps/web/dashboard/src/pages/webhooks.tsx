import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChangeFeedback } from '../feedback.ts';
import { msg, t } from '../messages/index.ts';
import { SecretDialog } from '../secret-dialog.tsx';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { Button, EmptyState, ErrorNote, Loading, Modal, PageHeader } from '../ui.tsx';
import { AdminOnly } from './admin-only.tsx';
import { DeliveryLog } from './webhooks/deliveries.tsx';
import { EndpointCard } from './webhooks/endpoint-card.tsx';
import { EndpointForm } from './webhooks/endpoint-form.tsx';

export function WebhooksPage({ session }: { session: Session }) {
  const { refresh } = useChangeFeedback(trpc.webhookEndpoints.pathKey());
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ secret: string; title: string } | null>(null);
  const list = useQuery({
    ...trpc.webhookEndpoints.list.queryOptions(),
    enabled: session.user.role === 'admin',
  });
  const create = useMutation(
    trpc.webhookEndpoints.create.mutationOptions({
      onSuccess: async (r) => {
        setAdding(false);
        setSecret({ secret: r.secret, title: msg('webhooks.added_secret_title') });
        await refresh();
      },
    }),
  );
  if (session.user.role !== 'admin')
    return <AdminOnly title={msg('webhooks.title')} what={msg('webhooks.admin_only_what')} />;
  const addButton = (label: string) => (
    <Button variant="primary" onClick={() => setAdding(true)}>
      {label}
    </Button>
  );
  return (
    <>
      <PageHeader title={msg('webhooks.title')} actions={addButton(msg('webhooks.add'))}>
        {t('webhooks.lead', { environment: session.environment })}
      </PageHeader>
      <Modal open={adding} onOpenChange={setAdding} title={msg('webhooks.add_title')}>
        {list.data ? (
          <EndpointForm
            eventTypes={list.data.event_types}
            initial={{ url: '', events: list.data.default_event_types, headers: {} }}
            busy={create.isPending}
            error={create.error}
            submitLabel={msg('webhooks.add')}
            onSubmit={(v) => create.mutate(v)}
          />
        ) : (
          <Loading />
        )}
      </Modal>
      <SecretDialog
        secret={secret?.secret ?? null}
        title={secret?.title ?? ''}
        description={msg('webhooks.secret_description')}
        testId="webhook-secret"
        copyLabel={msg('webhooks.copy_secret')}
        doneLabel={msg('webhooks.done')}
        onClose={() => setSecret(null)}
      />
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error} />
      {list.data?.endpoints.length === 0 ? (
        <EmptyState title={msg('webhooks.empty_title')} action={addButton(msg('webhooks.add_first'))}>
          {msg('webhooks.empty')}
        </EmptyState>
      ) : null}
      {list.data?.endpoints.map((e) => (
        <EndpointCard key={e.id} endpoint={e} onSecret={setSecret} />
      ))}
      {list.data && list.data.endpoints.length > 0 ? <DeliveryLog endpoints={list.data.endpoints} /> : null}
    </>
  );
}
