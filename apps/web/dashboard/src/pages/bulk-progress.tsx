import { csvFile } from '@esign/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { msg, t } from '../messages/index.ts';
import { trpc, trpcClient } from '../trpc.ts';
import { Button, ErrorNote, ProgressBar } from '../ui.tsx';

// A bulk send on its way: progress, a stop (credits ran out) with Resume, and the per-row results.

async function downloadResults(id: number) {
  const rows = await trpcClient.bulkSends.rows.query({ id });
  // Cells come from the uploaded file (names, addresses, messages): csvFile neutralises formulas.
  const csv = csvFile([
    ['row', 'status', 'signature_request_id', 'signers', 'error_code', 'error_message'],
    ...rows.data.map((r) => [
      r.row_number,
      r.status,
      r.signature_request_id,
      (r.signers as { email?: string; phone?: string }[]).map((s) => s.email ?? s.phone).join(' '),
      r.error_code,
      r.error_message,
    ]),
  ]);
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  const a = Object.assign(document.createElement('a'), {
    href: url,
    download: `bulk-send-${id}-results.csv`,
  });
  a.click();
  URL.revokeObjectURL(url);
}

export function BulkProgress({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const batch = useQuery({
    ...trpc.bulkSends.get.queryOptions({ id }),
    refetchInterval: (q) =>
      q.state.data && ['completed', 'stopped'].includes(q.state.data.status) ? false : 1000,
  });
  const resume = useMutation(
    trpc.bulkSends.resume.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.bulkSends.pathKey() }),
    }),
  );
  // A download that fails says so beside its button.
  const download = useMutation({ mutationFn: () => downloadResults(id) });
  const b = batch.data;
  if (!b) return <ErrorNote error={batch.error} />;
  const done = b.counts.sent + b.counts.failed + b.counts.invalid;
  return (
    <section className="card" aria-labelledby="bulk-progress">
      <h2 id="bulk-progress">{t('bulk.progress.title', { name: b.template.name })}</h2>
      <ProgressBar value={b.total_rows ? done / b.total_rows : 1} label={msg('bulk.progress.bar')} />
      <p role="status">
        {t('bulk.progress.status', {
          state: b.status,
          sent: b.counts.sent,
          failed: b.counts.invalid + b.counts.failed,
          pending: b.counts.pending,
          total: b.total_rows,
        })}
      </p>
      {b.status === 'stopped' ? (
        <p className="field-error">
          {b.stop_reason}{' '}
          <Button small onClick={() => resume.mutate({ id })} busy={resume.isPending}>
            {msg('bulk.progress.resume')}
          </Button>
        </p>
      ) : null}
      <ErrorNote error={resume.error} />
      <Button onClick={() => download.mutate()} busy={download.isPending}>
        {msg('bulk.progress.download')}
      </Button>
      <ErrorNote error={download.error} />
    </section>
  );
}
