import type { Session } from '../session.tsx';
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
  return (
    <>
      <PageHeader title="Billing">
        Credits are shared by everyone in the account. A request uses one credit when it is first completed;
        test mode uses none.
      </PageHeader>
      <Balance />
      {admin ? (
        <>
          <BillingCountry />
          <Packs />
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
