import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDate } from '../format.ts';
import { trpc } from '../trpc.ts';
import { Badge, Button, Confirm, EmptyState, ErrorNote, Loading, PageHeader, useToast } from '../ui.tsx';

/** The apps (AI assistants) the user connected to the MCP server with OAuth, and disconnecting one. */
export function ConnectedAppsPage() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const apps = useQuery(trpc.connectedApps.list.queryOptions());
  const revoke = useMutation(
    trpc.connectedApps.revoke.mutationOptions({
      onSuccess: async () => {
        toast('App disconnected: its access ends now');
        await queryClient.invalidateQueries({ queryKey: trpc.connectedApps.list.queryKey() });
      },
      onError: (err) => toast(err.message, 'bad'),
    }),
  );
  return (
    <>
      <PageHeader title="Connected apps">
        Assistants you connected to the MCP server with “Full access” or “View only”. They act as you.
      </PageHeader>
      {apps.isPending ? <Loading /> : null}
      <ErrorNote error={apps.error} />
      {apps.data && apps.data.length === 0 ? (
        <EmptyState title="No connected apps">
          Add this server's MCP address to an assistant (see docs/mcp.md): it sends you here to approve.
        </EmptyState>
      ) : null}
      {apps.data && apps.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Access</th>
                <th scope="col">Returns to</th>
                <th scope="col">Connected</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data.map((a) => (
                <tr key={a.client_id}>
                  <td data-label="App">{a.name}</td>
                  <td data-label="Access">
                    <Badge tone={a.access === 'full' ? 'info' : undefined}>
                      {a.access === 'full' ? 'Full access' : 'View only'}
                    </Badge>
                  </td>
                  <td data-label="Returns to">
                    <code>{a.redirect_uris.join(', ')}</code>
                  </td>
                  <td data-label="Connected">{formatDate(a.connected_at)}</td>
                  <td>
                    <Confirm
                      trigger={
                        <Button small variant="danger" aria-label={`Disconnect ${a.name}`}>
                          Disconnect
                        </Button>
                      }
                      title={`Disconnect “${a.name}”?`}
                      description="Its tokens stop working at once; to use it again, connect it again."
                      confirmLabel="Disconnect"
                      onConfirm={() => revoke.mutate({ client_id: a.client_id })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
