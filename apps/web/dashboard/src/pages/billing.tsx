import { useQuery } from '@tanstack/react-query';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { ErrorNote, Loading, PageHeader } from '../ui.tsx';

/** The balance from the same procedure as GET /credits; buying credits comes with the billing procedures. */
export function BillingPage({ session }: { session: Session }) {
  const credits = useQuery(trpc.account.credits.queryOptions());
  const c = credits.data;
  return (
    <>
      <PageHeader title="Billing">
        Credits are shared by everyone in the account. A request uses one credit when it is first completed;
        test mode uses none.
      </PageHeader>
      {credits.isPending ? <Loading /> : null}
      <ErrorNote error={credits.error} />
      {c ? (
        <section className="card" aria-labelledby="balance">
          <h2 id="balance">Balance</h2>
          <p className="big-number">
            {c.unlimited ? 'Unlimited' : `${c.available} credit${c.available === 1 ? '' : 's'}`}
          </p>
          <p>{c.billing}</p>
          {!c.unlimited && c.overdraft_limit < 0 ? (
            <p className="hint">You may go down to {c.overdraft_limit} before sending is blocked.</p>
          ) : null}
          <p className={c.can_send ? 'notice notice-good' : 'notice notice-error'} role="status">
            {c.can_send
              ? 'You can send documents for signature.'
              : 'Sending is blocked until credits are added.'}
          </p>
          <p className="hint">
            {session.user.role === 'admin'
              ? 'Buying credit packs from this page is coming; until then the operator of this server can add credits (esign credits grant).'
              : 'Admins of your account manage billing.'}
          </p>
        </section>
      ) : null}
    </>
  );
}
