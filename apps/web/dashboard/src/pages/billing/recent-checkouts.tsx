import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '../../format.ts';
import { Table } from '../../table.tsx';
import { trpc } from '../../trpc.ts';
import { Badge, ErrorNote, Loading } from '../../ui.tsx';

const CHECKOUT_STATUS: Record<string, { label: string; tone: string }> = {
  pending: { label: 'Waiting for payment', tone: 'info' },
  completed: { label: 'Paid', tone: 'good' },
  failed: { label: 'Failed or canceled', tone: 'bad' },
};

/** The signed-in admin's latest checkouts, newest first. */
export function RecentCheckouts() {
  const recent = useQuery(trpc.billing.listRecentCheckouts.queryOptions({ limit: 10 }));
  return (
    <section aria-labelledby="recent">
      <div className="section-head">
        <h2 id="recent">Your recent checkouts</h2>
      </div>
      {recent.isPending ? <Loading /> : null}
      <ErrorNote error={recent.error} />
      {recent.data && recent.data.data.length === 0 ? (
        <p className="hint">You have not bought any credits yet.</p>
      ) : null}
      {recent.data && recent.data.data.length > 0 ? (
        <Table columns={['Started', 'Pack', 'Amount', 'Status']}>
          {recent.data.data.map((c) => {
            const status = CHECKOUT_STATUS[c.status] ?? { label: c.status, tone: 'muted' };
            return (
              <tr key={c.id}>
                <td data-label="Started">{formatDateTime(c.created_at)}</td>
                <td data-label="Pack">{c.credit_pack.name}</td>
                <td data-label="Amount">
                  {c.amount} {c.currency}
                  {c.discount_code ? <span className="hint"> (code {c.discount_code})</span> : null}
                </td>
                <td data-label="Status">
                  <Badge tone={status.tone}>{status.label}</Badge>
                  {c.status === 'pending' && c.checkout_url ? (
                    <>
                      {' '}
                      <a href={c.checkout_url}>Continue to payment</a>
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
