import { Link } from 'react-router';
import { describeActivity, formatAgo } from '../../format.ts';
import { PrimaryLink } from '../../link-button.tsx';
import type { Outputs } from '../../router-types.ts';
import { EmptyState } from '../../ui.tsx';

type Overview = Outputs['dashboard']['overview'];

/** Before anything happened: the next step (a first template, or a first request). */
function FirstSteps({ hasTemplates }: { hasTemplates: boolean }) {
  return hasTemplates ? (
    <EmptyState title="No activity yet" action={<PrimaryLink to="/send">Send a template</PrimaryLink>}>
      Send one of your templates; views, signatures and completions show up here.
    </EmptyState>
  ) : (
    <EmptyState
      title="Nothing has happened yet"
      action={<PrimaryLink to="/templates">Upload your first template</PrimaryLink>}
    >
      Start by uploading a PDF as a template, then send it to the people who should sign it.
    </EmptyState>
  );
}

/** The latest events of the account, each linked to its request. */
export function RecentActivity({ overview: o }: { overview: Overview }) {
  return (
    <section aria-labelledby="activity">
      <h2 id="activity">Recent activity</h2>
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
