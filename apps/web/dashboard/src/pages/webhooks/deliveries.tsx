import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChangeFeedback } from '../../feedback.ts';
import { formatDateTime } from '../../format.ts';
import type { Outputs } from '../../router-types.ts';
import { trpc } from '../../trpc.ts';
import { Badge, Button, EmptyState, ErrorNote, Loading, statusTone } from '../../ui.tsx';

type Delivery = Outputs['webhookEndpoints']['deliveries']['data'][number];

/** One delivery: its status, and every attempt with the receiver's answer, folded. */
function DeliveryDetails({ delivery: d }: { delivery: Delivery }) {
  return (
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
  );
}

/** The latest deliveries (of one endpoint, or all), refreshed every 5 s, each with Retry now. */
function Deliveries({ endpointId }: { endpointId: number | undefined }) {
  const { toast, refresh, onError } = useChangeFeedback(trpc.webhookEndpoints.deliveries.queryKey());
  const input = endpointId ? { endpoint_id: endpointId, limit: 20 } : { limit: 20 };
  const list = useQuery({ ...trpc.webhookEndpoints.deliveries.queryOptions(input), refetchInterval: 5000 });
  const retry = useMutation(
    trpc.webhookEndpoints.retryDelivery.mutationOptions({
      onSuccess: async (d) => {
        toast(
          d.status === 'succeeded' ? 'Delivered' : `Attempt failed: ${d.last_error ?? 'no answer'}`,
          d.status === 'succeeded' ? 'good' : 'bad',
        );
        await refresh();
      },
      onError,
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
          <DeliveryDetails delivery={d} />
          {d.status === 'succeeded' ? null : (
            <Button
              small
              onClick={() => retry.mutate({ id: d.id })}
              busy={retry.isPending && retry.variables?.id === d.id}
            >
              Retry now
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The delivery log, with a choice of endpoint. */
export function DeliveryLog({ endpoints }: { endpoints: { id: number; url: string }[] }) {
  const [filter, setFilter] = useState<number | undefined>(undefined);
  return (
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
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {e.url}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Deliveries endpointId={filter} />
    </section>
  );
}
