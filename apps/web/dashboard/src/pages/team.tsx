import { useQuery } from '@tanstack/react-query';
import { msg, t } from '../messages/index.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { ErrorNote, Loading, PageHeader } from '../ui.tsx';
import { Invitations } from './team/invitations.tsx';
import { InviteForm } from './team/invite-form.tsx';
import { Members } from './team/members.tsx';
import { SsoSettings } from './team/sso.tsx';
import { TwoStepRule } from './team/two-step-rule.tsx';

export function TeamPage({ session }: { session: Session }) {
  const admin = session.user.role === 'admin';
  const list = useQuery(trpc.members.list.queryOptions());
  return (
    <>
      <PageHeader title={msg('team.title')}>
        {list.data?.account.name
          ? t('team.intro', { account: list.data.account.name })
          : msg('team.intro_unnamed')}
      </PageHeader>
      {admin ? <InviteForm /> : null}
      {admin ? <TwoStepRule /> : null}
      {admin ? <SsoSettings /> : null}
      {list.isPending ? <Loading /> : null}
      <ErrorNote error={list.error} />
      {list.data ? (
        <section aria-labelledby="members">
          <Members members={list.data.members} you={session.user.id} admin={admin} />
          <Invitations invitations={list.data.invitations} admin={admin} />
        </section>
      ) : null}
    </>
  );
}
