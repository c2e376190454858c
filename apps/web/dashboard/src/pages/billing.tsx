import { useQuery } from '@tanstack/react-query';
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
      <PageHeader title="Billing">
        Credits are shared by everyone in the account. One credit is used per signed document: a template uses
        a credit the first time it is signed, and sending the same template again uses no further credit. Test
        mode and the lifetime plan use none.
      </PageHeader>
      <Balance />
      {admin ? (
        <>
          <BillingCountry />
          {unlimited ? (
            <p className="notice" role="note">
              Your account is on the lifetime plan: sending never uses credits, so there is nothing to buy.
            </p>
          ) : (
            <Packs />
          )}
          <RecentCheckouts />
        </>
      ) : (
        <p className="notice" role="note">
          Admins of your account manage billing and buy credits. Ask one of them (see the Team page) if you
          need more.
        </p>
      )}
    </>
  );
}
