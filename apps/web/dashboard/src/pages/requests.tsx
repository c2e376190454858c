import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useSearchParams } from 'react-router';
import { PrimaryLink } from '../link-button.tsx';
import { msg } from '../messages/index.ts';
import { trpc } from '../trpc.ts';
import { ErrorNote, Loading, PageHeader, ShowMore } from '../ui.tsx';
import { RequestFilters } from './requests/filters.tsx';
import { NoRequests, RequestRow } from './requests/request-row.tsx';

export function RequestsPage() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const q = params.get('q') ?? '';
  const search = useDeferredValue(q.trim());
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const list = useInfiniteQuery(
    trpc.signatureRequests.list.infiniteQueryOptions(
      { limit: 20, ...(status ? { status } : {}), ...(search ? { q: search } : {}) },
      { getNextPageParam: (last) => last.next_cursor ?? undefined },
    ),
  );
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  // Issue 42 item 5: requests whose signer an SMS did not reach get a badge (the shown rows only).
  const ids = rows.map((r) => r.id).slice(-100);
  const smsProblems = useQuery({
    ...trpc.dashboard.smsProblems.queryOptions({ ids }),
    enabled: ids.length > 0,
  });
  const undelivered = new Set(smsProblems.data?.signature_request_ids ?? []);
  return (
    <>
      <PageHeader
        title={msg('requests.title')}
        actions={<PrimaryLink to="/send">{msg('requests.send')}</PrimaryLink>}
      >
        {msg('requests.intro')}
      </PageHeader>
      <RequestFilters q={q} status={status} set={set} />
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error} />
      {list.data && rows.length === 0 ? <NoRequests filtered={Boolean(status || search)} /> : null}
      <ul className="rows" aria-label={msg('requests.list_label')}>
        {rows.map((r) => (
          <RequestRow key={r.id} request={r} smsProblem={undelivered.has(r.id)} />
        ))}
      </ul>
      <ShowMore list={list} />
    </>
  );
}
