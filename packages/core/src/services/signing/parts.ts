import { markSignerSigned } from '@esign/db/queries/signing';
import type { Locale } from '@esign/i18n';
import { recordEvent } from '../events.ts';
import { readerLocale } from '../locale.ts';
import { purgeSignerMail } from '../mail-secrets.ts';
import { sendOutgoingNow } from '../sms/index.ts';
import { advanceRequest, hostedStep, requestPageUrl } from './complete.ts';
import { audit, mailCtx, requireSession, resolveLocked, type SignerCtx, scopeOfRequest } from './context.ts';
import { assertKind, assertTurn, checkOf, type SigningInput } from './values.ts';

// Issue 47 (docs/roles.md): the parts besides signing. An approver reviews the documents with every
// value entered so far and approves (signing.approve) or rejects with a reason (signing.reject, in
// values.ts beside decline); a viewer acknowledges having read them (signing.acknowledge). Either
// finishes them as a signature finishes a signer: status `signed` at this time, counted for the
// order (the next participant is invited only now) and for completion. Neither fills a field.

type Part = 'approver' | 'viewer';

const PART = {
  approver: {
    audit: 'signer.approved',
    event: 'signer.approved',
    statement: 'Approved the documents as shown',
  },
  viewer: {
    audit: 'signer.viewed_confirmed',
    event: 'signer.viewed_confirmed',
    statement: 'Confirmed having read the documents',
  },
} as const;

/** signing.approve and signing.acknowledge: see the module comment. */
export async function finishPart(
  sc: SignerCtx,
  input: SigningInput & { locale?: Locale | undefined; confirmed_name?: string | undefined },
  part: Part,
) {
  const { result, mailIds } = await sc.db.transaction().execute(async (tx) => {
    const r = await resolveLocked(tx, input.token, sc.now);
    await requireSession(tx, sc, checkOf(r, input));
    assertKind(r, part);
    assertTurn(r);
    const hosted = input.hosted ? await hostedStep(tx, sc, { r, confirmedName: input.confirmed_name }) : {};
    const locale =
      input.locale ??
      (await readerLocale(tx, { signer: r.signer, request: r.request, acceptLanguage: sc.acceptLanguage }))
        .locale;
    // Nothing of theirs to store: the values they saw stay their signers'.
    await markSignerSigned(tx, r.signer.id, { values: {}, ip: sc.ip, userAgent: sc.userAgent, now: sc.now });
    const { audit: type, event, statement } = PART[part];
    await audit(tx, sc, { r, type, data: { part, statement, locale, ...hosted } });
    await recordEvent(tx, scopeOfRequest(r.request), {
      type: event,
      objectType: 'signer',
      objectId: r.signer.id,
      now: sc.now,
    });
    await purgeSignerMail(tx, [r.signer.id], { what: 'all', now: sc.now });
    const { mailIds } = await advanceRequest(tx, sc, r);
    const back = input.hosted ? requestPageUrl(sc.config, r.request.id) : null;
    return { result: { redirect_url: back ?? r.signer.redirect_url ?? r.request.redirect_url }, mailIds };
  });
  await sendOutgoingNow(mailCtx(sc), mailIds);
  return result;
}
