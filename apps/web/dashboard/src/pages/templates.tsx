import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../format.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import {
  Badge,
  Button,
  Confirm,
  EmptyState,
  ErrorNote,
  Loading,
  PageHeader,
  ShowMore,
  useToast,
} from '../ui.tsx';
import { Upload } from './upload.tsx';

export function TemplatesPage({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const canWrite = session.user.role !== 'viewer';
  const [q, setQ] = useState('');
  const [folder, setFolder] = useState('');
  const [archived, setArchived] = useState(false);
  const search = useDeferredValue(q.trim());
  const folders = useQuery(trpc.dashboard.folders.queryOptions());
  const input = { limit: 20, ...(search ? { q: search } : {}), ...(folder ? { folder } : {}), archived };
  const list = useInfiniteQuery(
    trpc.templates.list.infiniteQueryOptions(input, {
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.templates.pathKey() });
  const onError = (e: { message: string }) => toast(e.message, 'bad');
  const duplicate = useMutation(
    trpc.templates.duplicate.mutationOptions({
      onSuccess: async (t) => {
        toast(`Created “${t.name}”`);
        await refresh();
      },
      onError,
    }),
  );
  const archive = useMutation(
    trpc.templates.archive.mutationOptions({
      onSuccess: async (t) => {
        toast(`Archived “${t.name}”: it can no longer be sent`);
        await refresh();
      },
      onError,
    }),
  );
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const filtered = search !== '' || folder !== '' || archived;
  return (
    <>
      <PageHeader title="Templates">
        Reusable documents with fields for each signer role. Text tags such as{' '}
        <code>{'{{signature;role=Client}}'}</code> in a PDF become fields automatically.
      </PageHeader>
      {canWrite ? <Upload folders={folders.data ?? []} onUploaded={refresh} /> : null}
      <search className="filters">
        <label className="inline grow">
          <span className="sr-only">Search templates by name</span>
          <input
            type="search"
            placeholder="Search by name"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </label>
        <label className="inline">
          Folder{' '}
          <select value={folder} onChange={(e) => setFolder(e.target.value)}>
            <option value="">All folders</option>
            {folders.data?.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} />{' '}
          Archived only
        </label>
      </search>
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error} />
      {list.data && rows.length === 0 ? (
        filtered ? (
          <EmptyState title="No templates match">Try another name or folder.</EmptyState>
        ) : (
          <EmptyState title="No templates yet">
            {canWrite
              ? 'Drop a PDF above to create your first template; then send it for signature.'
              : 'When your team uploads templates, they appear here.'}
          </EmptyState>
        )
      ) : null}
      <ul className="rows" aria-label="Templates">
        {rows.map((t) => (
          <li key={t.id} className="row">
            <div className="row-main">
              <strong>{t.name}</strong> {t.folder ? <Badge>{t.folder}</Badge> : null}
              {t.archived_at ? <Badge tone="muted">archived</Badge> : null}
              <div className="hint">
                Roles: {t.roles.join(', ') || 'none yet'} · created {formatDate(t.created_at)}
                {t.created_by ? ` by ${t.created_by.name || t.created_by.email}` : ''}
              </div>
            </div>
            <div className="row-actions">
              {!t.archived_at && canWrite ? (
                <Link className="btn btn-primary btn-small" to={`/send?template=${t.id}`}>
                  Send
                </Link>
              ) : null}
              <a className="btn btn-secondary btn-small" href={t.edit_url}>
                Edit fields
              </a>
              {canWrite ? (
                <Button
                  small
                  onClick={() => duplicate.mutate({ id: t.id })}
                  aria-label={`Duplicate ${t.name}`}
                >
                  Duplicate
                </Button>
              ) : null}
              {canWrite && !t.archived_at ? (
                <Confirm
                  trigger={
                    <Button small variant="danger" aria-label={`Archive ${t.name}`}>
                      Archive
                    </Button>
                  }
                  title={`Archive “${t.name}”?`}
                  description="It can no longer be sent, and signing links of its unfinished requests stop working. There is no undo."
                  confirmLabel="Archive"
                  onConfirm={() => archive.mutate({ id: t.id })}
                />
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      <ShowMore list={list} />
    </>
  );
}
