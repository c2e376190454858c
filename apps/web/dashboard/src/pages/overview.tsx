import { useQuery } from '@tanstack/react-query';
import { PrimaryLink } from '../link-button.tsx';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { ErrorNote, Loading, PageHeader } from '../ui.tsx';
import { RecentActivity } from './overview/activity.tsx';
import { OverviewStats } from './overview/stats.tsx';

export function OverviewPage({ session }: { session: Session }) {
  const overview = useQuery(trpc.dashboard.overview.queryOptions());
  const firstName = (session.user.name ?? '').split(' ')[0];
  return (
    <>
      <PageHeader
        title="Overview"
        actions={
          session.user.role !== 'viewer' ? <PrimaryLink to="/send">Send for signature</PrimaryLink> : null
        }
      >
        {firstName ? `Welcome back, ${firstName}.` : 'Welcome back.'}
      </PageHeader>
      {overview.isPending ? <Loading /> : null}
      <ErrorNote error={overview.error} />
      {overview.data ? (
        <>
          <OverviewStats overview={overview.data} />
          <RecentActivity overview={overview.data} />
        </>
      ) : null}
    </>
  );
}
