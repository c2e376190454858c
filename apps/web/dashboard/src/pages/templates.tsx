import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { msg, t, tx } from '../messages/index.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { EmptyState, ErrorNote, Loading, PageHeader, ShowMore, useToast } from '../ui.tsx';
import { TemplateFilters } from './template-filters.tsx';
import { TemplateRow } from './template-row.tsx';
import { Upload } from './upload.tsx';

/** A text tag as written in a PDF (the syntax, not words). */
const TEXT_TAG_EXAMPLE = '{{signature;role=Client}}';

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
      <PageHeader title={msg('templates.title')}>
        {tx('templates.intro', { tag: TEXT_TAG_EXAMPLE, code: (c) => <code>{c}</code> })}
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
          <EmptyState title={msg('templates.no_match.title')}>{msg('templates.no_match.body')}</EmptyState>
        ) : (
          <EmptyState title={msg('templates.empty.title')}>
            {msg(canWrite ? 'templates.empty.can_write' : 'templates.empty.read_only')}
          </EmptyState>
        )
      ) : null}
      <ul className="rows" aria-label={msg('templates.list')}>
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
      onSuccess: async (created) => {
        toast(t('templates.duplicated', { name: created.name }));
        await refresh();
      },
      onError,
    }),
  );
  const archive = useMutation(
    trpc.templates.archive.mutationOptions({
      onSuccess: async (archived) => {
        toast(t('templates.archived', { name: archived.name }));
        await refresh();
      },
      onError,
    }),
  );
  return { duplicate, archive };
}
