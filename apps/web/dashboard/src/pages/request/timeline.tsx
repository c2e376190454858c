import { useQuery } from '@tanstack/react-query';
import { describeActivity, formatDateTime } from '../../format.ts';
import { msg } from '../../messages/index.ts';
import { trpc } from '../../trpc.ts';
import { ErrorNote, Loading } from '../../ui.tsx';

/** What happened, oldest first, from the request's audit trail. */
export function Timeline({ id }: { id: number }) {
  const timeline = useQuery(trpc.dashboard.requestTimeline.queryOptions({ id }));
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">{msg('requests.timeline.title')}</h2>
      {timeline.isPending ? <Loading /> : null}
      <ErrorNote error={timeline.error} />
      <ol className="timeline">
        {timeline.data?.map((a) => (
          <li key={a.id}>
            <time dateTime={a.created_at}>{formatDateTime(a.created_at)}</time> {describeActivity(a)}
            {a.ip ? <span className="hint"> · {a.ip}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
