import { Link } from 'react-router';
import { formatDateTime, REQUEST_STATUS_LABEL, SIGNER_STATUS_LABEL } from '../../format.ts';
import { PrimaryLink } from '../../link-button.tsx';
import type { Outputs } from '../../router-types.ts';
import { Badge, EmptyState, statusTone } from '../../ui.tsx';

type RequestSummary = Outputs['signatureRequests']['list']['data'][number];

/** One request in the list: its template, status, signers and when it was sent. */
export function RequestRow({ request: r }: { request: RequestSummary }) {
  return (
    <li className="row">
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
  );
}

/** An empty list: nothing matches the filters, or nothing was sent yet. */
export function NoRequests({ filtered }: { filtered: boolean }) {
  return filtered ? (
    <EmptyState title="Nothing matches">Try another status or search.</EmptyState>
  ) : (
    <EmptyState
      title="No requests yet"
      action={<PrimaryLink to="/send">Send your first document</PrimaryLink>}
    >
      Send a template to one or more signers; you can follow their progress here.
    </EmptyState>
  );
}
