import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatDateTime, REQUEST_STATUS_LABEL } from '../format.ts';
import { msg, t } from '../messages/index.ts';
import type { Session } from '../session.tsx';
import { errorCode, trpc } from '../trpc.ts';
import { Badge, EmptyState, ErrorNote, Loading, Modal, PageHeader, statusTone } from '../ui.tsx';
import { Copies } from './request/copies.tsx';
import { Documents } from './request/documents.tsx';
import { Downloads } from './request/downloads.tsx';
import { EditSigner } from './request/edit-signer.tsx';
import { Reminders } from './request/reminders.tsx';
import { RequestActions } from './request/request-actions.tsx';
import { type Signer, SignerRow } from './request/signer-row.tsx';
import { Timeline } from './request/timeline.tsx';

/** How often a request is read again: while it is open, and while sealing finishes. */
const followInterval = (r: { status: string; audit_trail_url?: string | null | undefined } | undefined) =>
  r && ['sent', 'in_progress'].includes(r.status)
    ? 10_000
    : r?.status === 'completed' && !r.audit_trail_url
      ? 3_000
      : false;

/** One request, followed live while it is open, and while sealing finishes. */
function useRequest(id: number) {
  return useQuery({
    ...trpc.signatureRequests.get.queryOptions({ id }),
    refetchInterval: (q) => followInterval(q.state.data),
  });
}

/** Its documents and values, read again as often as the request (they change with it). */
function useRequestDocuments(id: number, request: Parameters<typeof followInterval>[0]) {
  return useQuery({
    ...trpc.dashboard.requestDocuments.queryOptions({ id }),
    enabled: request !== undefined,
    refetchInterval: (q) =>
      // Sealed once the request says so: read again until the pages are the sealed ones.
      request?.status === 'completed' && q.state.data?.documents.some((d) => !d.sealed)
        ? 3_000
        : followInterval(request),
  });
}

export function RequestPage({ session }: { session: Session }) {
  const id = Number(useParams().id);
  const [editing, setEditing] = useState<Signer | null>(null);
  const canWrite = session.user.role !== 'viewer';
  const request = useRequest(id);
  const documents = useRequestDocuments(id, request.data);
  if (request.isPending) return <Loading />;
  if (request.error) {
    return errorCode(request.error) === 'not_found' ? (
      <EmptyState
        title={msg('requests.not_found.title')}
        action={<Link to="/requests">{msg('requests.not_found.back')}</Link>}
      >
        {msg('requests.not_found.text')}
      </EmptyState>
    ) : (
      <ErrorNote error={request.error} />
    );
  }
  const r = request.data;
  const open = r.status === 'sent' || r.status === 'in_progress';
  const title = r.template?.name ?? t('requests.untitled', { id: String(r.id) });
  return (
    <>
      <p className="crumbs">
        <Link to="/requests">{msg('requests.detail.crumb')}</Link> / {title}
      </p>
      <PageHeader title={title} actions={open && canWrite ? <RequestActions id={r.id} /> : null}>
        <Badge tone={statusTone(r.status)}>{REQUEST_STATUS_LABEL[r.status] ?? r.status}</Badge>{' '}
        {t('requests.detail.sent', { date: formatDateTime(r.created_at) })}
        {r.expires_at ? ` · ${t('requests.detail.expires', { date: formatDateTime(r.expires_at) })}` : ''}
        {r.created_by
          ? ` · ${t('requests.detail.by', { name: r.created_by.name || r.created_by.email })}`
          : ''}
      </PageHeader>
      {r.status === 'completed' ? <Downloads files={documents.data?.downloads} /> : null}
      <section aria-labelledby="signers">
        <h2 id="signers">{msg('requests.detail.signers')}</h2>
        <ul className="rows">
          {r.signers.map((s) => (
            <SignerRow
              key={s.id}
              signer={s}
              canWrite={canWrite}
              values={documents.data?.fields.filter((f) => f.signer_id === s.id) ?? []}
              editable={open && canWrite && s.status !== 'signed' && s.status !== 'declined'}
              onEdit={() => setEditing(s)}
            />
          ))}
        </ul>
      </section>
      {documents.data ? <Documents data={documents.data} /> : <ErrorNote error={documents.error} />}
      <Copies cc={r.cc} notify={r.notify} />
      {r.reminders ? <Reminders id={r.id} open={open} signers={r.signers} /> : null}
      <Modal
        open={editing !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={
          editing?.name || editing?.email || editing?.phone
            ? t('requests.edit_signer.title', { name: editing.name || editing.email || editing.phone })
            : msg('requests.edit_signer.title_unnamed')
        }
      >
        {editing ? <EditSigner signer={editing} requestId={r.id} onClose={() => setEditing(null)} /> : null}
      </Modal>
      <Timeline id={r.id} />
    </>
  );
}
