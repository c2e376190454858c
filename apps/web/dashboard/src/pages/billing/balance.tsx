import { useQuery } from '@tanstack/react-query';
import { trpc } from '../../trpc.ts';
import { ErrorNote, Loading } from '../../ui.tsx';

/** The account's credits (the same procedure as GET /credits) and whether it can send. */
export function Balance() {
  const credits = useQuery(trpc.account.credits.queryOptions());
  const c = credits.data;
  if (credits.isPending) return <Loading />;
  if (!c) return <ErrorNote error={credits.error} />;
  return (
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
        {c.can_send ? 'You can send documents for signature.' : 'Sending is blocked until credits are added.'}
      </p>
    </section>
  );
}
