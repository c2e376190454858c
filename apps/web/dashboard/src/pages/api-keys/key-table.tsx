import { useMutation } from '@tanstack/react-query';
import { useChangeFeedback } from '../../feedback.ts';
import { formatAgo, formatDate } from '../../format.ts';
import type { Outputs } from '../../router-types.ts';
import { Table } from '../../table.tsx';
import { trpc } from '../../trpc.ts';
import { Badge, Button, Confirm } from '../../ui.tsx';

export type ApiKey = Outputs['apiKeys']['list'][number];

/** The active keys, each with a Revoke button (requests with a revoked key get 401 at once). */
export function KeyTable({ keys }: { keys: ApiKey[] }) {
  const { announce } = useChangeFeedback(trpc.apiKeys.list.queryKey());
  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions(announce('Key revoked: requests with it now get 401')),
  );
  return (
    <Table columns={['Name', 'Key', 'Access', 'Owner', 'Last used', 'Expires', '']}>
      {keys.map((k) => (
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
    </Table>
  );
}

/** Keys that no longer work, folded away. */
export function RevokedKeys({ keys }: { keys: ApiKey[] }) {
  if (keys.length === 0) return null;
  return (
    <details className="card">
      <summary>Revoked keys ({keys.length})</summary>
      <ul className="plain">
        {keys.map((k) => (
          <li key={k.id}>
            {k.name} <code>{k.prefix}…</code> — revoked {formatDate(k.revoked_at)}
          </li>
        ))}
      </ul>
    </details>
  );
}
