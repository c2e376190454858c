import { Link } from 'react-router';
import { msg } from '../../messages/index.ts';
import type { Outputs } from '../../router-types.ts';

type Overview = Outputs['dashboard']['overview'];

/** The four numbers at the top, each a link to the page behind it. */
export function OverviewStats({ overview: o }: { overview: Overview }) {
  return (
    <div className="stats">
      <Link to="/billing" className="stat">
        <span className="stat-value">{o.credits.unlimited ? '∞' : o.credits.available}</span>
        <span className="stat-label">
          {o.credits.unlimited ? msg('overview.stats.unlimited') : msg('overview.stats.credits_left')}
        </span>
        {!o.credits.can_send ? <span className="stat-warn">{msg('overview.stats.blocked')}</span> : null}
      </Link>
      <Link to="/requests?status=open" className="stat">
        <span className="stat-value">{o.waiting_on_others}</span>
        <span className="stat-label">{msg('overview.stats.waiting')}</span>
      </Link>
      <Link to="/requests?status=completed" className="stat">
        <span className="stat-value">{o.completed_last_30_days}</span>
        <span className="stat-label">{msg('overview.stats.completed_30_days')}</span>
      </Link>
      <Link to="/templates" className="stat">
        <span className="stat-value">{o.active_templates}</span>
        <span className="stat-label">{msg('overview.stats.templates')}</span>
      </Link>
    </div>
  );
}
