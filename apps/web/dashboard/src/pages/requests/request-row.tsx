import { Link } from 'react-router';
import { formatDateTime, REQUEST_STATUS_LABEL } from '../../format.ts';
import { PrimaryLink } from '../../link-button.tsx';
import { msg, t } from '../../messages/index.ts';
import type { Outputs } from '../../router-types.ts';
import { Badge, EmptyState, statusTone } from '../../ui.tsx';

type RequestSummary = Outputs['signatureRequests']['list']['data'][number];

/** One request in the list: its template, status, signers and when it was sent. */
export function RequestRow({ request: r, smsProblem }: { request: RequestSummary; smsProblem: boolean }) {
  return (
    <li className="row">
      <div className="row-main">
        <Link to={`/requests/${r.id}`} className="row-link">
          <strong>{r.template?.name ?? t('requests.untitled', { id: String(r.id) })}</strong>
        </Link>{' '}
        <Badge tone={statusTone(r.status)}>{REQUEST_STATUS_LABEL[r.status] ?? r.status}</Badge>{' '}
        {smsProblem ? <Badge tone="bad">{msg('requests.row.sms_problem')}</Badge> : null}
        <div className="hint">
          {r.signers
            .map((s) =>
              t('requests.row.signer', { name: s.name || s.email || s.phone || '', status: s.status }),
            )
            .join(' · ')}
        </div>
        <div className="hint">{t('requests.row.sent', { date: formatDateTime(r.created_at) })}</div>
      </div>
    </li>
  );
}

/** An empty list: nothing matches the filters, or nothing was sent yet. */
export function NoRequests({ filtered }: { filtered: boolean }) {
  return filtered ? (
    <EmptyState title={msg('requests.none_match.title')}>{msg('requests.none_match.text')}</EmptyState>
  ) : (
    <EmptyState
      title={msg('requests.empty.title')}
      action={<PrimaryLink to="/send">{msg('requests.empty.action')}</PrimaryLink>}
    >
      {msg('requests.empty.text')}
    </EmptyState>
  );
}
