import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { formatDateTime } from '../../format.ts';
import { msg, t } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { ErrorNote } from '../../ui.tsx';

// Issue 34.2: a request's automatic reminders on its page (shown when it has a schedule): the
// schedule, when the next run looks for signers due, and how many each signer got of the most.

interface SignerName {
  id: number;
  name: string | null;
  email: string | null;
  phone?: string | null | undefined;
}

export function Reminders({ id, open, signers }: { id: number; open: boolean; signers: SignerName[] }) {
  // Read again while the request is open, as the request page does.
  const schedule = useQuery({
    ...trpc.reminders.schedule.queryOptions({ id }),
    refetchInterval: open ? 10_000 : false,
  });
  if (schedule.error) return <ErrorNote error={schedule.error} />;
  const s = schedule.data;
  if (!s?.reminders) return null;
  const { every_hours, max } = s.reminders;
  const sent = new Map(s.signers.map((x) => [x.id, x.sent]));
  // Once the request ended (completed, declined, canceled, expired), no run is next and a count
  // "of max" would promise more: each signer's total is what is left to say.
  const running = s.open && open;
  return (
    <section aria-labelledby="reminders">
      <h2 id="reminders">{msg('requests.reminders.title')}</h2>
      <dl className="copies">
        <dt>{msg('requests.reminders.schedule')}</dt>
        <dd>{t('requests.reminders.schedule_value', { hours: every_hours, max })}</dd>
        <dt>{msg('requests.reminders.next')}</dt>
        <dd>
          {!running
            ? msg('requests.reminders.none_closed')
            : s.next_run_at
              ? formatDateTime(s.next_run_at)
              : msg('requests.reminders.none_now')}
          {running ? (
            <div className="hint">{t('requests.reminders.rule', { hours: every_hours })}</div>
          ) : null}
        </dd>
        {signers.map((signer) => (
          <Fragment key={signer.id}>
            <dt>
              {signer.name ||
                signer.email ||
                signer.phone ||
                t('requests.reminders.signer_fallback', { id: String(signer.id) })}
            </dt>
            <dd>
              {running
                ? t('requests.reminders.sent_count', { sent: sent.get(signer.id) ?? 0, max })
                : t('requests.reminders.sent_total', { sent: sent.get(signer.id) ?? 0 })}
            </dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
