import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../format.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import {
  Badge,
  Button,
  Confirm,
  CopyButton,
  EmptyState,
  ErrorNote,
  Loading,
  Modal,
  PageHeader,
  statusTone,
  useToast,
} from '../ui.tsx';
import { AdminOnly } from './admin-only.tsx';
import { EndpointForm } from './webhook-form.tsx';

type Endpoint = {
  id: number;
  url: string;
  events: string[];
  headers: Record<string, string>;
  enabled: boolean;
};

function SecretDialog({
  secret,
  onClose,
  title,
}: {
  secret: string | null;
  onClose: () => void;
  title: string;
}) {
  return (
    <Modal
      open={secret !== null}
      onOpenChange={(o) => !o && onClose()}
      title={title}
      description="Your receiver checks each delivery's X-Esign-Signature with this secret. Keep it private."
    >
      <div className="secret">
        <code data-testid="webhook-secret">{secret}</code>
        {secret ? <CopyButton value={secret} label="Copy secret" /> : null}
      </div>
      <div className="form-actions">
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      </div>
    </Modal>
  );
}

function Deliveries({ endpointId }: { endpointId: number | undefined }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const input = endpointId ? { endpoint_id: endpointId, limit: 20 } : { limit: 20 };
  const list = useQuery({ ...trpc.webhookEndpoints.deliveries.queryOptions(input), refetchInterval: 5000 });
  const retry = useMutation(
    trpc.webhookEndpoints.retryDelivery.mutationOptions({
      onSuccess: async (d) => {
        toast(
          d.status === 'succeeded' ? 'Delivered' : `Attempt failed: ${d.last_error ?? 'no answer'}`,
          d.status === 'succeeded' ? 'good' : 'bad',
        );
        await queryClient.invalidateQueries({ queryKey: trpc.webhookEndpoints.deliveries.queryKey() });
      },
      onError: (e) => toast(e.message, 'bad'),
    }),
  );
  if (list.isPending) return <Loading />;
  if (list.error) return <ErrorNote error={list.error} />;
  if (list.data.data.length === 0) {
    return (
      <EmptyState title="No deliveries yet">
        Send a test event, or create a template or request to trigger one.
      </EmptyState>
    );
  }
  return (
    <ul className="deliveries">
      {list.data.data.map((d) => (
        <li key={d.id} className="delivery">
          <details>
            <summary>
              <Badge tone={statusTone(d.status)}>{d.status}</Badge> <code>{d.event.type}</code>{' '}
              <span className="hint">
                {formatDateTime(d.created_at)} · {d.attempt_count} attempt{d.attempt_count === 1 ? '' : 's'}
                {d.last_status_code ? ` · HTTP ${d.last_status_code}` : ''}
                {d.next_attempt_at && d.status === 'pending'
                  ? ` · next try ${formatDateTime(d.next_attempt_at)}`
                  : ''}
              </span>
            </summary>
            <ol className="attempts">
              {d.attempts.map((a) => (
                <li key={a.id}>
                  Attempt {a.attempt} at {formatDateTime(a.started_at)}:{' '}
                  {a.status_code ? `HTTP ${a.status_code}` : (a.error ?? 'in flight')}
                  {a.duration_ms !== null ? ` in ${a.duration_ms} ms` : ''}
                  {a.response_excerpt ? <pre className="excerpt">{a.response_excerpt}</pre> : null}
                </li>
              ))}
            </ol>
            <p className="hint">Event id {d.event.id}</p>
          </details>
          <Button
            small
            onClick={() => retry.mutate({ id: d.id })}
            busy={retry.isPending && retry.variables?.id === d.id}
          >
            Retry now
          </Button>
        </li>
      ))}
    </ul>
  );
}

function EndpointCard({
  endpoint,
  onSecret,
}: {
  endpoint: Endpoint;
  onSecret: (s: { secret: string; title: string }) => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhookEndpoints.pathKey() });
  const test = useMutation(
    trpc.webhookEndpoints.test.mutationOptions({
      onSuccess: async (d) => {
        toast(
          d.status === 'succeeded'
            ? `Test delivered: HTTP ${d.last_status_code}`
            : `Test failed: ${d.last_error ?? `HTTP ${d.last_status_code}`}`,
          d.status === 'succeeded' ? 'good' : 'bad',
        );
        await refresh();
      },
      onError: (e) => toast(e.message, 'bad'),
    }),
  );
  const reveal = useMutation(
    trpc.webhookEndpoints.revealSecret.mutationOptions({
      onSuccess: (r) => onSecret({ secret: r.secret, title: 'Signing secret' }),
      onError: (e) => toast(e.message, 'bad'),
    }),
  );
  const rotate = useMutation(
    trpc.webhookEndpoints.rotateSecret.mutationOptions({
      onSuccess: (r) => onSecret({ secret: r.secret, title: 'New signing secret' }),
      onError: (e) => toast(e.message, 'bad'),
    }),
  );
  const update = useMutation(
    trpc.webhookEndpoints.update.mutationOptions({
      onSuccess: async (e) => {
        toast(e.enabled ? 'Endpoint saved' : 'Endpoint disabled: no new deliveries');
        setEditing(false);
        await refresh();
      },
      onError: (e) => toast(e.message, 'bad'),
    }),
  );
  return (
    <article className="card endpoint" aria-label={`Endpoint ${endpoint.url}`}>
      <header className="endpoint-head">
        <code className="url">{endpoint.url}</code>
        <Badge tone={endpoint.enabled ? 'good' : 'muted'}>{endpoint.enabled ? 'enabled' : 'disabled'}</Badge>
      </header>
      <p className="hint">
        {endpoint.events.length} event{endpoint.events.length === 1 ? '' : 's'}: {endpoint.events.join(', ')}
        {Object.keys(endpoint.headers).length
          ? ` · custom headers: ${Object.keys(endpoint.headers).join(', ')}`
          : ''}
      </p>
      <div className="button-row">
        <Button
          small
          variant="primary"
          onClick={() => test.mutate({ id: endpoint.id })}
          busy={test.isPending}
        >
          Send test
        </Button>
        <Button small onClick={() => setEditing(true)}>
          Edit
        </Button>
        <Button small onClick={() => reveal.mutate({ id: endpoint.id })} busy={reveal.isPending}>
          Reveal secret
        </Button>
        <Confirm
          trigger={<Button small>Rotate secret</Button>}
          title="Rotate the signing secret?"
          description="Deliveries are signed with the new secret at once; update your receiver right away."
          confirmLabel="Rotate"
          danger={false}
          onConfirm={() => rotate.mutate({ id: endpoint.id })}
        />
        <Button
          small
          variant={endpoint.enabled ? 'danger' : 'secondary'}
          busy={update.isPending}
          onClick={() => update.mutate({ id: endpoint.id, enabled: !endpoint.enabled })}
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
      </div>
      <Modal open={editing} onOpenChange={setEditing} title="Edit endpoint">
        <EndpointForm
          initial={endpoint}
          busy={update.isPending}
          error={update.error}
          submitLabel="Save"
          onSubmit={(v) => update.mutate({ id: endpoint.id, ...v })}
        />
      </Modal>
    </article>
  );
}

export function WebhooksPage({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ secret: string; title: string } | null>(null);
  const [filter, setFilter] = useState<number | undefined>(undefined);
  const list = useQuery({
    ...trpc.webhookEndpoints.list.queryOptions(),
    enabled: session.user.role === 'admin',
  });
  const create = useMutation(
    trpc.webhookEndpoints.create.mutationOptions({
      onSuccess: async (r) => {
        setAdding(false);
        setSecret({ secret: r.secret, title: 'Endpoint added: its signing secret' });
        await queryClient.invalidateQueries({ queryKey: trpc.webhookEndpoints.pathKey() });
      },
    }),
  );
  if (session.user.role !== 'admin') return <AdminOnly title="Webhooks" what="Webhook endpoints" />;
  return (
    <>
      <PageHeader
        title="Webhooks"
        actions={
          <Button variant="primary" onClick={() => setAdding(true)}>
            Add endpoint
          </Button>
        }
      >
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
        onClose={() => setSecret(null)}
      />
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error} />
      {list.data?.endpoints.length === 0 ? (
        <EmptyState
          title="No endpoints yet"
          action={
            <Button variant="primary" onClick={() => setAdding(true)}>
              Add your first endpoint
            </Button>
          }
        >
          Add the URL of a server that should hear about signatures as they happen.
        </EmptyState>
      ) : null}
      {list.data?.endpoints.map((e) => (
        <EndpointCard key={e.id} endpoint={e} onSecret={setSecret} />
      ))}
      {list.data && list.data.endpoints.length > 0 ? (
        <section aria-labelledby="deliveries">
          <div className="section-head">
            <h2 id="deliveries">Delivery log</h2>
            <label className="inline">
              Endpoint{' '}
              <select
                value={filter ?? ''}
                onChange={(e) => setFilter(e.target.value ? Number(e.target.value) : undefined)}
              >
                <option value="">All endpoints</option>
                {list.data.endpoints.map((e) => (
                  <option key={e.id} value={e.id}>
                    {e.url}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <Deliveries endpointId={filter} />
        </section>
      ) : null}
    </>
  );
}
