import { Link } from 'react-router';
import { describeActivity, formatAgo } from '../../format.ts';
import { PrimaryLink } from '../../link-button.tsx';
import { msg } from '../../messages/index.ts';
import type { Outputs } from '../../router-types.ts';
import { EmptyState } from '../../ui.tsx';

type Overview = Outputs['dashboard']['overview'];

/** Before anything happened: the next step (a first template, or a first request). */
function FirstSteps({ hasTemplates }: { hasTemplates: boolean }) {
  return hasTemplates ? (
    <EmptyState
      title={msg('overview.first_request.title')}
      action={<PrimaryLink to="/send">{msg('overview.first_request.action')}</PrimaryLink>}
    >
      {msg('overview.first_request.text')}
    </EmptyState>
  ) : (
    <EmptyState
      title={msg('overview.first_template.title')}
      action={<PrimaryLink to="/templates">{msg('overview.first_template.action')}</PrimaryLink>}
    >
      {msg('overview.first_template.text')}
    </EmptyState>
  );
}

/** The latest events of the account, each linked to its request. */
export function RecentActivity({ overview: o }: { overview: Overview }) {
  return (
    <section aria-labelledby="activity">
      <h2 id="activity">{msg('overview.activity.title')}</h2>
      {o.recent_activity.length === 0 ? (
        <FirstSteps hasTemplates={o.active_templates !== 0} />
      ) : (
        <ul className="activity">
          {o.recent_activity.map((a) => (
            <li key={a.id}>
              {a.signature_request ? (
                <Link to={`/requests/${a.signature_request.id}`}>{describeActivity(a)}</Link>
              ) : (
                describeActivity(a)
              )}
              <span className="hint"> · {formatAgo(a.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
