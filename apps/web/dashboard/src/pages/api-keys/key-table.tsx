import { useMutation } from '@tanstack/react-query';
import { useChangeFeedback } from '../../feedback.ts';
import { formatAgo, formatDate } from '../../format.ts';
import { msg, t, tx } from '../../messages/index.ts';
import type { Outputs } from '../../router-types.ts';
import { Table } from '../../table.tsx';
import { trpc } from '../../trpc.ts';
import { Badge, Button, Confirm } from '../../ui.tsx';

export type ApiKey = Outputs['apiKeys']['list'][number];

/** The table's column names, also the cells' labels on a phone. */
const COLUMNS = {
  name: msg('keys.col.name'),
  key: msg('keys.col.key'),
  access: msg('keys.col.access'),
  owner: msg('keys.col.owner'),
  last_used: msg('keys.col.last_used'),
  expires: msg('keys.col.expires'),
};

/** The active keys, each with a Revoke button (requests with a revoked key get 401 at once). */
export function KeyTable({ keys }: { keys: ApiKey[] }) {
  const { announce } = useChangeFeedback(trpc.apiKeys.list.queryKey());
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions(announce(msg('keys.revoke.done'))));
  return (
    <Table
      columns={[
        COLUMNS.name,
        COLUMNS.key,
        COLUMNS.access,
        COLUMNS.owner,
        COLUMNS.last_used,
        COLUMNS.expires,
        '',
      ]}
    >
      {keys.map((k) => (
        <tr key={k.id}>
          <td data-label={COLUMNS.name}>{k.name}</td>
          <td data-label={COLUMNS.key}>
            <code>{k.prefix}…</code>
          </td>
          <td data-label={COLUMNS.access}>
            <Badge tone={k.environment === 'test' ? 'warn' : 'info'}>
              {t('keys.environment', { environment: k.environment })}
            </Badge>{' '}
            <Badge>{msg(k.permission === 'full' ? 'keys.permission.full' : 'keys.permission.read')}</Badge>
          </td>
          <td data-label={COLUMNS.owner}>{k.user.email}</td>
          <td data-label={COLUMNS.last_used}>{formatAgo(k.last_used_at)}</td>
          <td data-label={COLUMNS.expires}>{k.expires_at ? formatDate(k.expires_at) : msg('keys.never')}</td>
          <td>
            <Confirm
              trigger={
                <Button small variant="danger" aria-label={t('keys.revoke.label', { name: k.name })}>
                  {msg('keys.revoke.button')}
                </Button>
              }
              title={t('keys.revoke.title', { name: k.name })}
              description={msg('keys.revoke.description')}
              confirmLabel={msg('keys.revoke.confirm')}
              onConfirm={() => revoke.mutate({ id: k.id })}
            />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** Keys that no longer work, folded away. */
export function RevokedKeys({ keys }: { keys: ApiKey[] }) {
  if (keys.length === 0) return null;
  return (
    <details className="card">
      <summary>{t('keys.revoked.title', { count: keys.length })}</summary>
      <ul className="plain">
        {keys.map((k) => (
          <li key={k.id}>
            {tx('keys.revoked.item', {
              name: k.name,
              key: <code>{k.prefix}…</code>,
              date: formatDate(k.revoked_at),
            })}
          </li>
        ))}
      </ul>
    </details>
  );
}
