import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChangeFeedback } from '../../feedback.ts';
import { formatDateTime } from '../../format.ts';
import { msg, t } from '../../messages/index.ts';
import type { Outputs } from '../../router-types.ts';
import { trpc } from '../../trpc.ts';
import { Badge, Button, EmptyState, ErrorNote, Loading, statusTone } from '../../ui.tsx';

type Delivery = Outputs['webhookEndpoints']['deliveries']['data'][number];

/** The facts after a delivery's event type: when, how many attempts, the last HTTP status, the next try. */
function deliveryFacts(d: Delivery): string {
  return [
    formatDateTime(d.created_at),
    t('webhooks.delivery.attempts', { count: d.attempt_count }),
    d.last_status_code ? t('webhooks.http_status', { code: d.last_status_code }) : null,
    d.next_attempt_at && d.status === 'pending'
      ? t('webhooks.delivery.next_try', { time: formatDateTime(d.next_attempt_at) })
      : null,
  ]
    .filter((fact) => fact !== null)
    .join(' · ');
}

/** One attempt: when, the receiver's answer (or the error), and how long it took. */
function attemptLine(a: Delivery['attempts'][number]): string {
  const values = {
    number: a.attempt,
    time: formatDateTime(a.started_at),
    outcome: a.status_code
      ? t('webhooks.http_status', { code: a.status_code })
      : (a.error ?? msg('webhooks.delivery.in_flight')),
  };
  return a.duration_ms !== null
    ? t('webhooks.delivery.attempt_timed', { ...values, duration: a.duration_ms })
    : t('webhooks.delivery.attempt', values);
}

/** One delivery: its status, and every attempt with the receiver's answer, folded. */
function DeliveryDetails({ delivery: d }: { delivery: Delivery }) {
  return (
    <details>
      <summary>
        <Badge tone={statusTone(d.status)}>{t('webhooks.delivery.status', { status: d.status })}</Badge>{' '}
        <code>{d.event.type}</code> <span className="hint">{deliveryFacts(d)}</span>
      </summary>
      <ol className="attempts">
        {d.attempts.map((a) => (
          <li key={a.id}>
            {attemptLine(a)}
            {a.response_excerpt ? <pre className="excerpt">{a.response_excerpt}</pre> : null}
          </li>
        ))}
      </ol>
      <p className="hint">{t('webhooks.delivery.event_id', { id: d.event.id })}</p>
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
          d.status === 'succeeded'
            ? msg('webhooks.delivery.delivered')
            : t('webhooks.delivery.retry_failed', {
                error: d.last_error ?? msg('webhooks.delivery.no_answer'),
              }),
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
      <EmptyState title={msg('webhooks.deliveries.empty_title')}>
        {msg('webhooks.deliveries.empty')}
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
              {msg('webhooks.delivery.retry')}
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The delivery log, with a choice of endpoint. */
export function DeliveryLog({ endpoints }: { endpoints: { id: number; url: string }[] }) {
  const [chosen, setFilter] = useState<number | undefined>(undefined);
  // A deleted endpoint leaves the choice (its deliveries went with it): back to all endpoints.
  const filter = endpoints.some((e) => e.id === chosen) ? chosen : undefined;
  return (
    <section aria-labelledby="deliveries">
      <div className="section-head">
        <h2 id="deliveries">{msg('webhooks.deliveries.title')}</h2>
        <label className="inline">
          {msg('webhooks.deliveries.endpoint')}{' '}
          <select
            value={filter ?? ''}
            onChange={(e) => setFilter(e.target.value ? Number(e.target.value) : undefined)}
          >
            <option value="">{msg('webhooks.deliveries.all_endpoints')}</option>
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
