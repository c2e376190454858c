import type { Tx } from '@esign/db';
import { sql } from 'kysely';
import { CoreError } from '../../errors.ts';
import {
  HOUR_MS,
  LINK_VISITS_PER_EMAIL_PER_HOUR,
  LINK_VISITS_PER_IP_PER_HOUR,
  LINK_VISITS_PER_TEMPLATE_PER_HOUR,
} from './policy.ts';

type Kind = 'email' | 'ip' | 'template';

/**
 * The per-address and per-template rates of public links: codes asked for in the last hour, by
 * this email address, from this IP address, and for this template. Runs with the link row locked,
 * so two visits of one link are counted one after the other.
 */
export async function checkVisitLimits(
  tx: Tx,
  templateId: number,
  visitor: { email: string; ip: string | null },
  now: Date,
): Promise<void> {
  const since = new Date(now.getTime() - HOUR_MS);
  const window = (q: Kind) => {
    let base = tx
      .selectFrom('link_visits')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('first')])
      .where('created_at', '>', since);
    if (q === 'email') base = base.where(sql`lower(email)`, '=', visitor.email.toLowerCase());
    if (q === 'ip') base = base.where('ip', '=', visitor.ip);
    if (q === 'template') base = base.where('template_id', '=', templateId);
    return base.executeTakeFirstOrThrow();
  };
  const checks: [Kind, number, string][] = [
    ['template', LINK_VISITS_PER_TEMPLATE_PER_HOUR, 'This signing link is busy'],
    ['email', LINK_VISITS_PER_EMAIL_PER_HOUR, 'Too many codes were sent to this email address'],
    ['ip', LINK_VISITS_PER_IP_PER_HOUR, 'Too many codes were asked for from your network'],
  ];
  for (const [kind, limit, what] of checks) {
    if (kind === 'ip' && !visitor.ip) continue;
    const { n, first } = await window(kind);
    if (Number(n) >= limit && first) {
      const retry = Math.max(1, Math.ceil((new Date(first).getTime() + HOUR_MS - now.getTime()) / 1000));
      throw new CoreError(
        'rate_limited',
        `${what} (at most ${limit} an hour); try again in ${Math.ceil(retry / 60)} min`,
        {
          retryAfterSeconds: retry,
        },
      );
    }
  }
}
