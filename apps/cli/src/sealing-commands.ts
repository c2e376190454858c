import { CoreError } from '@esign/core';
import { assertSealingRetryable, listFailedSealing, retrySealing } from '@esign/core/operator';
import type { Command, Options } from './commands.ts';

// `esign sealing ...`: requests whose sealing gave up (services/sealing-failures.ts in core).

function positiveInt(opts: Options, name: string, required: boolean): number | undefined {
  const v = opts[name];
  if (v === undefined || v === '') {
    if (required) throw new CoreError('missing_parameter', `--${name} is required`);
    return undefined;
  }
  if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) < 1)
    throw new CoreError('invalid_parameter', `--${name} must be a positive integer, got "${v}"`);
  return Number(v);
}

export const sealingCommands: Record<string, Command> = {
  'sealing failed': {
    usage: 'sealing failed [--limit N]',
    options: { limit: { type: 'string' } },
    run: (ctx, o) => listFailedSealing(ctx.db, { limit: positiveInt(o, 'limit', false) }),
    text: (r) =>
      r.data.length
        ? r.data
            .map(
              (s: any) =>
                `#${s.id} (account ${s.account_id}, ${s.environment}) "${s.title ?? ''}" completed ${s.completed_at}\n  ${s.sealing_error ?? ''}`,
            )
            .join('\n')
        : 'No request whose sealing failed',
  },
  'sealing retry': {
    usage: 'sealing retry --id N',
    options: { id: { type: 'string' } },
    run: async (ctx, o) => {
      const id = positiveInt(o, 'id', true)!;
      await assertSealingRetryable(ctx.db, id);
      if (!(await retrySealing(ctx, id)))
        throw new CoreError('invalid_request', `Signature request ${id} could not be queued for sealing`);
      return { id, sealing_status: 'pending' as const };
    },
    text: (r) => `Signature request ${r.id}: sealing queued again; the worker picks it up`,
  },
};
