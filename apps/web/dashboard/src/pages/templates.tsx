import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { EmptyState, ErrorNote, Loading, PageHeader, ShowMore, useToast } from '../ui.tsx';
import { TemplateFilters } from './template-filters.tsx';
import { TemplateRow } from './template-row.tsx';
import { Upload } from './upload.tsx';

export function TemplatesPage({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const canWrite = session.user.role !== 'viewer';
  const [q, setQ] = useState('');
  const [folder, setFolder] = useState('');
  const [archived, setArchived] = useState(false);
  const search = useDeferredValue(q.trim());
  const folders = useQuery(trpc.dashboard.folders.queryOptions());
  const input = { limit: 20, ...(search ? { q: search } : {}), ...(folder ? { folder } : {}), archived };
  const list = useInfiniteQuery(
    trpc.dashboard.templates.infiniteQueryOptions(input, {
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
  );
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.templates.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.dashboard.templates.pathKey() });
  };
  const { duplicate, archive } = useTemplateActions(refresh);
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const filtered = search !== '' || folder !== '' || archived;
  return (
    <>
      <PageHeader title="Templates">
        Reusable documents with fields for each signer role. Text tags such as{' '}
        <code>{'{{signature;role=Client}}'}</code> in a PDF become fields automatically.
      </PageHeader>
      {canWrite ? <Upload folders={folders.data ?? []} onUploaded={refresh} /> : null}
      <TemplateFilters
        q={q}
        onQ={setQ}
        folder={folder}
        onFolder={setFolder}
        folders={folders.data ?? []}
        archived={archived}
        onArchived={setArchived}
      />
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
          <TemplateRow
            key={t.id}
            template={t}
            canWrite={canWrite}
            onDuplicate={() => duplicate.mutate({ id: t.id })}
            onArchive={() => archive.mutate({ id: t.id })}
          />
        ))}
      </ul>
      <ShowMore list={list} />
    </>
  );
}

/** Duplicate and archive, each telling the person what happened and refreshing the list. */
function useTemplateActions(refresh: () => Promise<void>) {
  const toast = useToast();
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
  return { duplicate, archive };
}
