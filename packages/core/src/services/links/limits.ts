import type { Tx } from '@esign/db';
import { countLinkVisitsSince, type VisitWindow } from '@esign/db/queries/links';
import type { MessageKey } from '@esign/i18n';
import { CoreError } from '../../errors.ts';
import {
  HOUR_MS,
  LINK_VISITS_PER_EMAIL_PER_HOUR,
  LINK_VISITS_PER_IP_PER_HOUR,
  LINK_VISITS_PER_TEMPLATE_PER_HOUR,
} from './policy.ts';

type Kind = VisitWindow;

/**
 * The per-address and per-template rates of public links: codes asked for in the last hour, by
 * this email address, from this IP address, and for this template. Runs with the link row locked,
 * so two visits of one link are counted one after the other.
 */
export async function checkVisitLimits(
  tx: Tx,
  templateId: number,
  { visitor, now }: { visitor: { email: string; ip: string | null }; now: Date },
): Promise<void> {
  const since = new Date(now.getTime() - HOUR_MS);
  const window = (kind: Kind) =>
    countLinkVisitsSince(tx, { window: kind, since, email: visitor.email, ip: visitor.ip, templateId });
  const checks: [Kind, number, string, MessageKey][] = [
    ['template', LINK_VISITS_PER_TEMPLATE_PER_HOUR, 'This signing link is busy', 'link.busy'],
    [
      'email',
      LINK_VISITS_PER_EMAIL_PER_HOUR,
      'Too many codes were sent to this email address',
      'link.too_many_email',
    ],
    [
      'ip',
      LINK_VISITS_PER_IP_PER_HOUR,
      'Too many codes were asked for from your network',
      'link.too_many_ip',
    ],
  ];
  for (const [kind, limit, what, key] of checks) {
    if (kind === 'ip' && !visitor.ip) continue;
    const { n, first } = await window(kind);
    if (n >= limit && first) {
      const retry = Math.max(1, Math.ceil((first.getTime() + HOUR_MS - now.getTime()) / 1000));
      throw new CoreError(
        'rate_limited',
        `${what} (at most ${limit} an hour); try again in ${Math.ceil(retry / 60)} min`,
        { retryAfterSeconds: retry, messageKey: key, messageValues: { minutes: Math.ceil(retry / 60) } },
      );
    }
  }
}
