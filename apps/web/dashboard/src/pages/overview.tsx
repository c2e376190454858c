import { useQuery } from '@tanstack/react-query';
import { PrimaryLink } from '../link-button.tsx';
import { msg, t } from '../messages/index.ts';
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
        title={msg('overview.title')}
        actions={
          session.user.role !== 'viewer' ? <PrimaryLink to="/send">{msg('overview.send')}</PrimaryLink> : null
        }
      >
        {firstName ? t('overview.welcome_name', { name: firstName }) : msg('overview.welcome')}
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
