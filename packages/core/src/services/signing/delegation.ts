import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import { delegateSignerRow, deleteSignerSessions } from '@esign/db/queries/delegation';
import { findUserName } from '@esign/db/queries/signature-requests';
import type { z } from 'zod';
import type { DelegateInput } from '../../contracts/delegation.ts';
import { CoreError } from '../../errors.ts';
import { queueRequestMail } from '../brands/request-mail.ts';
import { layout } from '../emails.ts';
import { recordEvent } from '../events.ts';
import { purgeSignerMail } from '../mail-secrets.ts';
import type { RequestSnapshot } from '../request-model.ts';
import { rearmAutoReminders } from '../signature-requests/auto-reminders.ts';
import { queueInvitation, senderNameOf, sendQueuedMail } from '../signature-requests/index.ts';
import { newSignerToken } from '../signature-requests/invitations.ts';
import { normalisePhone } from '../sms/phone.ts';
import { audit, mailCtx, type Resolved, requireSession, resolveLocked, type SignerCtx } from './context.ts';
import { assertTurn } from './values.ts';

// Issue 34.3, "hand my turn to someone else": on a request sent with `allow_delegation`, the signer
// whose turn it is names another person (name and email or phone) with a reason. In one
// transaction: the signer row takes the new person with a new link (the old link is then unknown:
// `404 not_found`, as any invalid link), the first person's drafts, views, code sessions and link
// emails are dropped, the new person is invited for the same role from an empty form, the sender
// is emailed, the audit trail records who handed to whom and why, and the opt-in extension event
// `signer.delegated` is recorded. The emails go out after the commit.

type DelegateArgs = z.infer<typeof DelegateInput>;

/** The new signer's number in E.164, or a refusal the signing page shows at the phone input. */
function delegatePhone(value: string): string {
  try {
    return normalisePhone(value, 'phone');
  } catch (e) {
    if (!(e instanceof CoreError)) throw e;
    throw new CoreError(e.code, e.message, { messageKey: 'error.delegation_phone' });
  }
}

function checkDelegation(r: Resolved, input: DelegateArgs): void {
  if (!r.request.allow_delegation) {
    throw new CoreError('forbidden', 'The sender of this request does not allow handing it to someone else', {
      messageKey: 'error.delegation_off',
    });
  }
  assertTurn(r);
  if (!input.email && !input.phone) {
    throw new CoreError('invalid_parameter', 'Enter an email address or a phone number for the new signer', {
      messageKey: 'error.delegation_contact',
    });
  }
  const same = (a: string | null | undefined, b: string | null | undefined) =>
    !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();
  const phone = input.phone ? delegatePhone(input.phone) : null;
  if (same(input.email, r.signer.email) || (!input.email && same(phone, r.signer.phone))) {
    throw new CoreError('invalid_parameter', 'Name someone other than yourself to sign instead', {
      messageKey: 'error.delegation_self',
    });
  }
}

const who = (s: Pick<SignerRow, 'name' | 'email' | 'phone'>) => ({
  name: s.name,
  email: s.email,
  phone: s.phone,
});

/** The person handing over as the new one knows them: name and address. */
const personName = (s: SignerRow) => {
  const address = s.email ?? s.phone;
  return s.name && address ? `${s.name} (${address})` : (s.name ?? address ?? 'A signer');
};

/** The sender's notice: who handed the request to whom, and why. */
async function queueSenderNotice(
  tx: Tx,
  sc: SignerCtx,
  o: { request: SignatureRequestRow; from: SignerRow; to: SignerRow; reason: string },
): Promise<number | null> {
  const { request } = o;
  const sender = request.created_by_user_id ? await findUserName(tx, request.created_by_user_id) : undefined;
  const to = sender?.email ?? request.reply_to;
  if (!to) return null;
  const title = (request.snapshot as RequestSnapshot).template.name;
  const label = (s: SignerRow) => `${s.name ?? 'A signer'} (${s.email ?? s.phone ?? 'no address'})`;
  const mail = layout(
    [
      `${label(o.from)} handed their turn on "${title}" to ${label(o.to)}.`,
      `Reason: ${o.reason}`,
      `The first link no longer works. ${o.to.name ?? 'The new signer'} signs from an empty form${o.to.email ? ' and was emailed a link' : '; share their signing link from the request'}.`,
    ],
    { url: `${sc.config.PUBLIC_URL}/requests/${request.id}`, label: 'Open the request' },
    'You get this email because you sent this request and allowed signers to hand it on.',
  );
  return queueRequestMail(
    tx,
    { config: sc.config, request },
    {
      kind: 'delegation_notice',
      to,
      subject: `"${title}" was handed to ${o.to.name ?? 'someone else'}`,
      ...mail,
      accountId: request.account_id,
      environment: request.environment,
    },
  );
}

async function delegateLocked(tx: Tx, sc: SignerCtx, input: DelegateArgs) {
  const r = await resolveLocked(tx, input.token, sc.now);
  await requireSession(tx, sc, { signer: r.signer, session: input.session });
  checkDelegation(r, input);
  const from = r.signer;
  // The first person's link emails and codes are spent before the new person's invitation is queued.
  await purgeSignerMail(tx, [from.id], { what: 'all', now: sc.now });
  await deleteSignerSessions(tx, from.id);
  const to = await delegateSignerRow(tx, from.id, {
    name: input.name,
    email: input.email ?? null,
    // Stored in E.164 like every signer's phone (issue 32); an impossible number is 422.
    phone: input.phone ? normalisePhone(input.phone, 'phone') : null,
    // The new person's language, never the first person's (issue 32).
    locale: input.locale ?? null,
    ...newSignerToken(sc.config),
    now: sc.now,
  });
  await audit(tx, sc, {
    r,
    type: 'signer.delegated',
    data: { from: who(from), to: who(to), reason: input.reason },
    // Done by the person handing over: the row already names the new one.
    signerWho: who(from),
  });
  const scope = { accountId: r.request.account_id, environment: r.request.environment };
  await recordEvent(tx, scope, {
    type: 'signer.delegated',
    objectType: 'signer',
    objectId: from.id,
    now: sc.now,
  });
  // The new person is invited by their channel: email, or SMS when they gave only a phone.
  const senderName = await senderNameOf(tx, r.request);
  const mailIds = await queueInvitation(tx, sc.config, {
    request: r.request,
    signer: to,
    kind: 'invitation',
    senderName,
    now: sc.now,
    // The new person learns who passed it on and why (issue 42).
    handedOver: { from: personName(from), reason: input.reason },
  });
  const notice = await queueSenderNotice(tx, sc, { request: r.request, from, to, reason: input.reason });
  if (notice !== null) mailIds.mail.push(notice);
  await rearmAutoReminders(tx, r.request, sc.now);
  return mailIds;
}

/** signing.delegate: see the module comment. */
export async function delegateSigning(sc: SignerCtx, input: DelegateArgs): Promise<{ delegated: true }> {
  const mailIds = await sc.db.transaction().execute((tx) => delegateLocked(tx, sc, input));
  await sendQueuedMail(mailCtx(sc), mailIds);
  return { delegated: true };
}
