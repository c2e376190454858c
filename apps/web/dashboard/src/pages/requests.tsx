import { useInfiniteQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime, REQUEST_STATUS_LABEL, SIGNER_STATUS_LABEL } from '../format.ts';
import { trpc } from '../trpc.ts';
import { Badge, EmptyState, ErrorNote, Loading, PageHeader, ShowMore, statusTone } from '../ui.tsx';

const FILTERS = [
  { value: '', label: 'All' },
  { value: 'open', label: 'Waiting for signatures' },
  { value: 'completed', label: 'Completed' },
  { value: 'declined', label: 'Declined' },
  { value: 'expired', label: 'Expired' },
  { value: 'canceled', label: 'Canceled' },
];

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
  return (
    <>
      <PageHeader
        title="Requests"
        actions={
          <Link className="btn btn-primary" to="/send">
            Send for signature
          </Link>
        }
      >
        Everything sent for signature, newest first.
      </PageHeader>
      <search className="filters">
        <label className="inline grow">
          <span className="sr-only">Search by signer name, email or phone</span>
          <input
            type="search"
            placeholder="Search signers by name, email or phone"
            value={q}
            onChange={(e) => set('q', e.target.value)}
          />
        </label>
        <label className="inline">
          Status{' '}
          <select value={status} onChange={(e) => set('status', e.target.value)}>
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
      </search>
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error} />
      {list.data && rows.length === 0 ? (
        status || search ? (
          <EmptyState title="Nothing matches">Try another status or search.</EmptyState>
        ) : (
          <EmptyState
            title="No requests yet"
            action={
              <Link className="btn btn-primary" to="/send">
                Send your first document
              </Link>
            }
          >
            Send a template to one or more signers; you can follow their progress here.
          </EmptyState>
        )
      ) : null}
      <ul className="rows" aria-label="Signature requests">
        {rows.map((r) => (
          <li key={r.id} className="row">
            <div className="row-main">
              <Link to={`/requests/${r.id}`} className="row-link">
                <strong>{r.template?.name ?? `Request ${r.id}`}</strong>
              </Link>{' '}
              <Badge tone={statusTone(r.status)}>{REQUEST_STATUS_LABEL[r.status] ?? r.status}</Badge>
              <div className="hint">
                {r.signers
                  .map(
                    (s) =>
                      `${s.name || s.email || s.phone} (${SIGNER_STATUS_LABEL[s.status]?.toLowerCase() ?? s.status})`,
                  )
                  .join(' · ')}
              </div>
              <div className="hint">Sent {formatDateTime(r.created_at)}</div>
            </div>
          </li>
        ))}
      </ul>
      <ShowMore list={list} />
    </>
  );
}
