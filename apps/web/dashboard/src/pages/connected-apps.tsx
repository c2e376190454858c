import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDate } from '../format.ts';
import { msg, t } from '../messages/index.ts';
import { trpc } from '../trpc.ts';
import { Badge, Button, Confirm, EmptyState, ErrorNote, Loading, PageHeader, useToast } from '../ui.tsx';

/** The guide to connecting an assistant, in the repository. */
const MCP_GUIDE = 'docs/mcp.md';

/** The table's column names, also the cells' labels on a phone. */
const COLUMNS = {
  app: msg('apps.col.app'),
  access: msg('apps.col.access'),
  returns_to: msg('apps.col.returns_to'),
  connected: msg('apps.col.connected'),
};

/** The apps (AI assistants) the user connected to the MCP server with OAuth, and disconnecting one. */
export function ConnectedAppsPage() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const apps = useQuery(trpc.connectedApps.list.queryOptions());
  const revoke = useMutation(
    trpc.connectedApps.revoke.mutationOptions({
      onSuccess: async () => {
        toast(msg('apps.disconnect.done'));
        await queryClient.invalidateQueries({ queryKey: trpc.connectedApps.list.queryKey() });
      },
      onError: (err) => toast(err.message, 'bad'),
    }),
  );
  return (
    <>
      <PageHeader title={msg('apps.title')}>
        {t('apps.intro', { full: msg('apps.access.full'), view: msg('apps.access.view') })}
      </PageHeader>
      {apps.isPending ? <Loading /> : null}
      <ErrorNote error={apps.error} />
      {apps.data && apps.data.length === 0 ? (
        <EmptyState title={msg('apps.none')}>{t('apps.none_hint', { doc: MCP_GUIDE })}</EmptyState>
      ) : null}
      {apps.data && apps.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{COLUMNS.app}</th>
                <th scope="col">{COLUMNS.access}</th>
                <th scope="col">{COLUMNS.returns_to}</th>
                <th scope="col">{COLUMNS.connected}</th>
                <th scope="col">
                  <span className="sr-only">{msg('apps.col.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data.map((a) => (
                <tr key={a.client_id}>
                  <td data-label={COLUMNS.app}>{a.name}</td>
                  <td data-label={COLUMNS.access}>
                    <Badge tone={a.access === 'full' ? 'info' : undefined}>
                      {msg(a.access === 'full' ? 'apps.access.full' : 'apps.access.view')}
                    </Badge>
                  </td>
                  <td data-label={COLUMNS.returns_to}>
                    <code>{a.redirect_uris.join(', ')}</code>
                  </td>
                  <td data-label={COLUMNS.connected}>{formatDate(a.connected_at)}</td>
                  <td>
                    <Confirm
                      trigger={
                        <Button
                          small
                          variant="danger"
                          aria-label={t('apps.disconnect.label', { name: a.name })}
                        >
                          {msg('apps.disconnect.button')}
                        </Button>
                      }
                      title={t('apps.disconnect.title', { name: a.name })}
                      description={msg('apps.disconnect.description')}
                      confirmLabel={msg('apps.disconnect.confirm')}
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
