import { useQuery } from '@tanstack/react-query';
import { msg, t } from '../../messages/index.ts';
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
      <h2 id="balance">{msg('billing.balance.title')}</h2>
      <p className="big-number">
        {c.unlimited
          ? msg('billing.balance.unlimited')
          : t('billing.balance.credits', { count: c.available })}
      </p>
      {/* The API's `billing` sentence is English; the page says the same from the catalogue. */}
      <p>{msg(c.unlimited ? 'billing.balance.lifetime' : 'billing.balance.how_used')}</p>
      {!c.unlimited && c.overdraft_limit < 0 ? (
        <p className="hint">{t('billing.balance.overdraft', { limit: c.overdraft_limit })}</p>
      ) : null}
      <p className={c.can_send ? 'notice notice-good' : 'notice notice-error'} role="status">
        {msg(c.can_send ? 'billing.balance.can_send' : 'billing.balance.blocked')}
      </p>
    </section>
  );
}
