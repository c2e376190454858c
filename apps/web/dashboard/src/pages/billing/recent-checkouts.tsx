import { formatMoney } from '@esign/domain';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '../../format.ts';
import { msg, t } from '../../messages/index.ts';
import { Table } from '../../table.tsx';
import { trpc } from '../../trpc.ts';
import { Badge, ErrorNote, Loading } from '../../ui.tsx';

const CHECKOUT_STATUS: Record<string, { label: string; tone: string }> = {
  pending: { label: msg('billing.checkouts.pending'), tone: 'info' },
  completed: { label: msg('billing.checkouts.completed'), tone: 'good' },
  failed: { label: msg('billing.checkouts.failed'), tone: 'bad' },
};

/** The table's column names, also each cell's label on a phone. */
const COLUMN = {
  started: msg('billing.checkouts.started'),
  pack: msg('billing.checkouts.pack'),
  amount: msg('billing.checkouts.amount'),
  status: msg('billing.checkouts.status'),
};

/** The signed-in admin's latest checkouts, newest first. */
export function RecentCheckouts() {
  const recent = useQuery(trpc.billing.listRecentCheckouts.queryOptions({ limit: 10 }));
  return (
    <section aria-labelledby="recent">
      <div className="section-head">
        <h2 id="recent">{msg('billing.checkouts.title')}</h2>
      </div>
      {recent.isPending ? <Loading /> : null}
      <ErrorNote error={recent.error} />
      {recent.data && recent.data.data.length === 0 ? (
        <p className="hint">{msg('billing.checkouts.none')}</p>
      ) : null}
      {recent.data && recent.data.data.length > 0 ? (
        <Table columns={[COLUMN.started, COLUMN.pack, COLUMN.amount, COLUMN.status]}>
          {recent.data.data.map((c) => {
            const status = CHECKOUT_STATUS[c.status] ?? { label: c.status, tone: 'muted' };
            return (
              <tr key={c.id}>
                <td data-label={COLUMN.started}>{formatDateTime(c.created_at)}</td>
                <td data-label={COLUMN.pack}>{c.credit_pack.name}</td>
                <td data-label={COLUMN.amount}>
                  {formatMoney(c.amount, c.currency)}
                  {c.discount_code ? (
                    <span className="hint"> {t('billing.checkouts.code', { code: c.discount_code })}</span>
                  ) : null}
                </td>
                <td data-label={COLUMN.status}>
                  <Badge tone={status.tone}>{status.label}</Badge>
                  {c.status === 'pending' && c.checkout_url ? (
                    <>
                      {' '}
                      <a href={c.checkout_url}>{msg('billing.checkouts.continue')}</a>
                    </>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </Table>
      ) : null}
    </section>
  );
}
