import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { describeActivity, formatAgo } from '../format.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { EmptyState, ErrorNote, Loading, PageHeader } from '../ui.tsx';

export function OverviewPage({ session }: { session: Session }) {
  const overview = useQuery(trpc.dashboard.overview.queryOptions());
  const o = overview.data;
  const firstName = (session.user.name ?? '').split(' ')[0];
  return (
    <>
      <PageHeader
        title="Overview"
        actions={
          session.user.role !== 'viewer' ? (
            <Link className="btn btn-primary" to="/send">
              Send for signature
            </Link>
          ) : null
        }
      >
        {firstName ? `Welcome back, ${firstName}.` : 'Welcome back.'}
      </PageHeader>
      {overview.isPending ? <Loading /> : null}
      <ErrorNote error={overview.error} />
      {o ? (
        <>
          <div className="stats">
            <Link to="/billing" className="stat">
              <span className="stat-value">{o.credits.unlimited ? '∞' : o.credits.available}</span>
              <span className="stat-label">{o.credits.unlimited ? 'Unlimited plan' : 'Credits left'}</span>
              {!o.credits.can_send ? (
                <span className="stat-warn">Sending is blocked: buy credits</span>
              ) : null}
            </Link>
            <Link to="/requests?status=open" className="stat">
              <span className="stat-value">{o.waiting_on_others}</span>
              <span className="stat-label">Waiting on others</span>
            </Link>
            <Link to="/requests?status=completed" className="stat">
              <span className="stat-value">{o.completed_last_30_days}</span>
              <span className="stat-label">Completed in 30 days</span>
            </Link>
            <Link to="/templates" className="stat">
              <span className="stat-value">{o.active_templates}</span>
              <span className="stat-label">Templates</span>
            </Link>
          </div>
          <section aria-labelledby="activity">
            <h2 id="activity">Recent activity</h2>
            {o.recent_activity.length === 0 ? (
              o.active_templates === 0 ? (
                <EmptyState
                  title="Nothing has happened yet"
                  action={
                    <Link className="btn btn-primary" to="/templates">
                      Upload your first template
                    </Link>
                  }
                >
                  Start by uploading a PDF as a template, then send it to the people who should sign it.
                </EmptyState>
              ) : (
                <EmptyState
                  title="No activity yet"
                  action={
                    <Link className="btn btn-primary" to="/send">
                      Send a template
                    </Link>
                  }
                >
                  Send one of your templates; views, signatures and completions show up here.
                </EmptyState>
              )
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
        </>
      ) : null}
    </>
  );
}
