import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { formatDateTime } from '../../format.ts';
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
  return (
    <section aria-labelledby="reminders">
      <h2 id="reminders">Automatic reminders</h2>
      <dl className="copies">
        <dt>Schedule</dt>
        <dd>
          Every {every_hours} hours, at most {max} per signer
        </dd>
        <dt>Next reminder</dt>
        <dd>
          {s.next_run_at
            ? formatDateTime(s.next_run_at)
            : open
              ? 'None scheduled: no signer can get one now'
              : 'None: the request is no longer open'}
          <div className="hint">
            A signer whose turn it is gets one once {every_hours} hours have passed since their last email.
          </div>
        </dd>
        {signers.map((signer) => (
          <Fragment key={signer.id}>
            <dt>{signer.name || signer.email || signer.phone || `Signer ${signer.id}`}</dt>
            <dd>
              {sent.get(signer.id) ?? 0} of {max} sent
            </dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
