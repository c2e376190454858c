import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useChangeFeedback } from '../../feedback.ts';
import { trpc } from '../../trpc.ts';
import { Badge, Button, Confirm, Modal } from '../../ui.tsx';
import { EndpointForm } from './endpoint-form.tsx';

export type Endpoint = {
  id: number;
  url: string;
  events: string[];
  headers: Record<string, string>;
  enabled: boolean;
};

export type ShowSecret = (s: { secret: string; title: string }) => void;

/** What can be done to one endpoint: send a test, reveal or rotate its secret, save or disable it. */
function useEndpointChanges(onSecret: ShowSecret, onSaved: () => void) {
  const { toast, refresh, onError } = useChangeFeedback(trpc.webhookEndpoints.pathKey());
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
      onError,
    }),
  );
  const reveal = useMutation(
    trpc.webhookEndpoints.revealSecret.mutationOptions({
      onSuccess: (r) => onSecret({ secret: r.secret, title: 'Signing secret' }),
      onError,
    }),
  );
  const rotate = useMutation(
    trpc.webhookEndpoints.rotateSecret.mutationOptions({
      onSuccess: (r) => onSecret({ secret: r.secret, title: 'New signing secret' }),
      onError,
    }),
  );
  const update = useMutation(
    trpc.webhookEndpoints.update.mutationOptions({
      onSuccess: async (e) => {
        toast(e.enabled ? 'Endpoint saved' : 'Endpoint disabled: no new deliveries');
        onSaved();
        await refresh();
      },
      onError,
    }),
  );
  return { test, reveal, rotate, update };
}

/** One endpoint: its URL, events and headers, and its buttons. */
export function EndpointCard({ endpoint, onSecret }: { endpoint: Endpoint; onSecret: ShowSecret }) {
  const [editing, setEditing] = useState(false);
  const { test, reveal, rotate, update } = useEndpointChanges(onSecret, () => setEditing(false));
  const id = endpoint.id;
  const headerNames = Object.keys(endpoint.headers);
  return (
    <article className="card endpoint" aria-label={`Endpoint ${endpoint.url}`}>
      <header className="endpoint-head">
        <code className="url">{endpoint.url}</code>
        <Badge tone={endpoint.enabled ? 'good' : 'muted'}>{endpoint.enabled ? 'enabled' : 'disabled'}</Badge>
      </header>
      <p className="hint">
        {endpoint.events.length} event{endpoint.events.length === 1 ? '' : 's'}: {endpoint.events.join(', ')}
        {headerNames.length ? ` · custom headers: ${headerNames.join(', ')}` : ''}
      </p>
      <div className="button-row">
        <Button small variant="primary" onClick={() => test.mutate({ id })} busy={test.isPending}>
          Send test
        </Button>
        <Button small onClick={() => setEditing(true)}>
          Edit
        </Button>
        <Button small onClick={() => reveal.mutate({ id })} busy={reveal.isPending}>
          Reveal secret
        </Button>
        <Confirm
          trigger={<Button small>Rotate secret</Button>}
          title="Rotate the signing secret?"
          description="Deliveries are signed with the new secret at once; update your receiver right away."
          confirmLabel="Rotate"
          danger={false}
          onConfirm={() => rotate.mutate({ id })}
        />
        <Button
          small
          variant={endpoint.enabled ? 'danger' : 'secondary'}
          busy={update.isPending}
          onClick={() => update.mutate({ id, enabled: !endpoint.enabled })}
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
          onSubmit={(v) => update.mutate({ id, ...v })}
        />
      </Modal>
    </article>
  );
}
