import type { BulkSendRow } from '@esign/db';

export interface BulkSendDto {
  object: 'bulk_send';
  id: number;
  status: 'queued' | 'running' | 'completed' | 'stopped';
  stop_reason: string | null;
  template: { id: number; name: string };
  file_name: string;
  total_rows: number;
  /** rows by outcome: pending (not sent yet), sent, invalid (never sent), failed (refused when sent) */
  counts: { pending: number; sent: number; invalid: number; failed: number };
  created_at: string;
  finished_at: string | null;
}

export function toBulkSendDto(
  batch: BulkSendRow,
  template: { id: number; name: string },
  counts: { status: string; n: string | number }[],
): BulkSendDto {
  const count = (s: string) => Number(counts.find((c) => c.status === s)?.n ?? 0);
  return {
    object: 'bulk_send',
    id: batch.id,
    status: batch.status,
    stop_reason: batch.stop_reason,
    template,
    file_name: batch.file_name,
    total_rows: batch.total_rows,
    counts: {
      pending: count('pending'),
      sent: count('sent'),
      invalid: count('invalid'),
      failed: count('failed'),
    },
    created_at: batch.created_at.toISOString(),
    finished_at: batch.finished_at?.toISOString() ?? null,
  };
}
