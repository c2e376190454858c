import { useQuery } from '@tanstack/react-query';
import { msg } from '../messages/index.ts';
import type { Session } from '../session.tsx';
import { trpc } from '../trpc.ts';
import { PageHeader } from '../ui.tsx';
import { Balance } from './billing/balance.tsx';
import { BillingCountry } from './billing/billing-country.tsx';
import { Packs } from './billing/packs.tsx';
import { RecentCheckouts } from './billing/recent-checkouts.tsx';

/**
 * The `purchase_url`: the balance (the same procedure as GET /credits) for everyone; for admins the
 * billing country, the credit packs with a Buy button (the same procedure as POST /checkouts, then
 * the browser goes to the checkout's `checkout_url`) and their recent checkouts.
 */
export function BillingPage({ session }: { session: Session }) {
  const admin = session.user.role === 'admin';
  // Lifetime owners never need credits: no packs are offered to them (the same procedure as GET /credits).
  const unlimited = useQuery(trpc.account.credits.queryOptions()).data?.unlimited === true;
  return (
    <>
      <PageHeader title={msg('billing.title')}>{msg('billing.lead')}</PageHeader>
      <Balance />
      {admin ? (
        <>
          <BillingCountry />
          {unlimited ? (
            <p className="notice" role="note">
              {msg('billing.lifetime_note')}
            </p>
          ) : (
            <Packs />
          )}
          <RecentCheckouts />
        </>
      ) : (
        <p className="notice" role="note">
          {msg('billing.members_note')}
        </p>
      )}
    </>
  );
}
