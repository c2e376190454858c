import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChangeFeedback } from '../feedback.ts';
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
        setSecret({ secret: r.secret, title: 'Endpoint added: its signing secret' });
        await refresh();
      },
    }),
  );
  if (session.user.role !== 'admin') return <AdminOnly title="Webhooks" what="Webhook endpoints" />;
  const addButton = (label: string) => (
    <Button variant="primary" onClick={() => setAdding(true)}>
      {label}
    </Button>
  );
  return (
    <>
      <PageHeader title="Webhooks" actions={addButton('Add endpoint')}>
        We POST signed events to your endpoints when templates, requests and signers change (
        {session.environment} data).
      </PageHeader>
      <Modal open={adding} onOpenChange={setAdding} title="Add an endpoint">
        {list.data ? (
          <EndpointForm
            eventTypes={list.data.event_types}
            initial={{ url: '', events: list.data.default_event_types, headers: {} }}
            busy={create.isPending}
            error={create.error}
            submitLabel="Add endpoint"
            onSubmit={(v) => create.mutate(v)}
          />
        ) : (
          <Loading />
        )}
      </Modal>
      <SecretDialog
        secret={secret?.secret ?? null}
        title={secret?.title ?? ''}
        description="Your receiver checks each delivery's X-Esign-Signature with this secret. Keep it private."
        testId="webhook-secret"
        copyLabel="Copy secret"
        doneLabel="Done"
        onClose={() => setSecret(null)}
      />
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error} />
      {list.data?.endpoints.length === 0 ? (
        <EmptyState title="No endpoints yet" action={addButton('Add your first endpoint')}>
          Add the URL of a server that should hear about signatures as they happen.
        </EmptyState>
      ) : null}
      {list.data?.endpoints.map((e) => (
        <EndpointCard key={e.id} endpoint={e} onSecret={setSecret} />
      ))}
      {list.data && list.data.endpoints.length > 0 ? <DeliveryLog endpoints={list.data.endpoints} /> : null}
    </>
  );
}
