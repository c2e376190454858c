import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useChangeFeedback } from '../../feedback.ts';
import { msg, t, tx } from '../../messages/index.ts';
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

/** What can be done to one endpoint: send a test, reveal or rotate its secret, save, disable or delete it. */
function useEndpointChanges(onSecret: ShowSecret, onSaved: () => void) {
  const { toast, refresh, onError } = useChangeFeedback(trpc.webhookEndpoints.pathKey());
  const test = useMutation(
    trpc.webhookEndpoints.test.mutationOptions({
      onSuccess: async (d) => {
        toast(
          d.status === 'succeeded'
            ? t('webhooks.endpoint.test_delivered', { code: d.last_status_code })
            : t('webhooks.endpoint.test_failed', {
                error: d.last_error ?? t('webhooks.http_status', { code: d.last_status_code }),
              }),
          d.status === 'succeeded' ? 'good' : 'bad',
        );
        await refresh();
      },
      onError,
    }),
  );
  const reveal = useMutation(
    trpc.webhookEndpoints.revealSecret.mutationOptions({
      onSuccess: (r) => onSecret({ secret: r.secret, title: msg('webhooks.endpoint.secret_title') }),
      onError,
    }),
  );
  const rotate = useMutation(
    trpc.webhookEndpoints.rotateSecret.mutationOptions({
      onSuccess: (r) => onSecret({ secret: r.secret, title: msg('webhooks.endpoint.new_secret_title') }),
      onError,
    }),
  );
  const update = useMutation(
    trpc.webhookEndpoints.update.mutationOptions({
      onSuccess: async (e) => {
        toast(msg(e.enabled ? 'webhooks.endpoint.saved' : 'webhooks.endpoint.disabled_toast'));
        onSaved();
        await refresh();
      },
      onError,
    }),
  );
  const remove = useMutation(
    trpc.webhookEndpoints.delete.mutationOptions({
      onSuccess: async () => {
        toast(msg('webhooks.endpoint.deleted_toast'));
        await refresh();
      },
      onError,
    }),
  );
  return { test, reveal, rotate, update, remove };
}

/** One endpoint: its URL, events and headers, and its buttons. */
export function EndpointCard({ endpoint, onSecret }: { endpoint: Endpoint; onSecret: ShowSecret }) {
  const [editing, setEditing] = useState(false);
  const { test, reveal, rotate, update, remove } = useEndpointChanges(onSecret, () => setEditing(false));
  const id = endpoint.id;
  const headerNames = Object.keys(endpoint.headers);
  return (
    <article className="card endpoint" aria-label={t('webhooks.endpoint.label', { url: endpoint.url })}>
      <header className="endpoint-head">
        <code className="url">{endpoint.url}</code>
        <Badge tone={endpoint.enabled ? 'good' : 'muted'}>
          {msg(endpoint.enabled ? 'webhooks.endpoint.enabled' : 'webhooks.endpoint.disabled')}
        </Badge>
      </header>
      <p className="hint">
        {t('webhooks.endpoint.events', { count: endpoint.events.length, events: endpoint.events.join(', ') })}
        {headerNames.length
          ? ` · ${t('webhooks.endpoint.custom_headers', { names: headerNames.join(', ') })}`
          : ''}
      </p>
      <div className="button-row">
        <Button small variant="primary" onClick={() => test.mutate({ id })} busy={test.isPending}>
          {msg('webhooks.endpoint.send_test')}
        </Button>
        <Button small onClick={() => setEditing(true)}>
          {msg('webhooks.endpoint.edit')}
        </Button>
        <Button small onClick={() => reveal.mutate({ id })} busy={reveal.isPending}>
          {msg('webhooks.endpoint.reveal_secret')}
        </Button>
        <Confirm
          trigger={<Button small>{msg('webhooks.endpoint.rotate_secret')}</Button>}
          title={msg('webhooks.endpoint.rotate_title')}
          description={msg('webhooks.endpoint.rotate_description')}
          confirmLabel={msg('webhooks.endpoint.rotate')}
          danger={false}
          onConfirm={() => rotate.mutate({ id })}
        />
        <Button
          small
          variant={endpoint.enabled ? 'danger' : 'secondary'}
          busy={update.isPending}
          onClick={() => update.mutate({ id, enabled: !endpoint.enabled })}
        >
          {msg(endpoint.enabled ? 'webhooks.endpoint.disable' : 'webhooks.endpoint.enable')}
        </Button>
        <Confirm
          trigger={
            <Button small variant="danger" busy={remove.isPending}>
              {msg('webhooks.endpoint.delete')}
            </Button>
          }
          title={msg('webhooks.endpoint.delete_title')}
          description={tx('webhooks.endpoint.delete_description', { url: <code>{endpoint.url}</code> })}
          confirmLabel={msg('webhooks.endpoint.delete_confirm')}
          onConfirm={() => remove.mutate({ id })}
        />
      </div>
      <Modal open={editing} onOpenChange={setEditing} title={msg('webhooks.endpoint.edit_title')}>
        <EndpointForm
          initial={endpoint}
          busy={update.isPending}
          error={update.error}
          submitLabel={msg('webhooks.endpoint.save')}
          onSubmit={(v) => update.mutate({ id, ...v })}
        />
      </Modal>
    </article>
  );
}
