import type { SignerRow } from '@esign/db';
import { findRequestViewById } from '@esign/db/queries/signature-requests';
import { findSignerByTokenHash, markSignerViewed } from '@esign/db/queries/signing';
import { sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { requestBrand, signingBrandOf } from '../brands/branded-mail.ts';
import { recordEvent } from '../events.ts';
import { signingPages } from '../file-links.ts';
import { readerLocale } from '../locale.ts';
import {
  type FieldValue,
  type RequestSnapshot,
  type SnapshotDocument,
  snapshotPageRuns,
} from '../request-model.ts';
import { effectiveStatus, effectiveValues, signerFields } from '../signature-requests/index.ts';
import { loadSigners } from '../signature-requests/queries.ts';
import { codeBySms } from '../sms/index.ts';
import { isPreviewToken, openTemplatePreview } from '../templates/preview.ts';
import { consentText } from './consent.ts';
import {
  audit,
  hostOf,
  type Resolved,
  resolve,
  resolveLocked,
  type SignerCtx,
  scopeOfRequest,
  sessionValid,
} from './context.ts';
import { hasFormLogic } from './form-logic.ts';
import { hostedElsewhere } from './hosted.ts';
import { filledByOthers } from './others.ts';

/**
 * Records `viewed` (signer status, audit entry, event) once, when the document is actually shown:
 * after the email code when one is required, never while the signer is still waiting their turn.
 */
async function recordViewed(sc: SignerCtx, token: string, first: Resolved): Promise<Resolved> {
  if (first.signer.viewed_at || first.signer.status === 'waiting') return first;
  return sc.db.transaction().execute(async (tx) => {
    const locked = await resolveLocked(tx, token, sc.now);
    if (locked.signer.viewed_at) return locked;
    const signer = await markSignerViewed(tx, locked.signer.id, {
      status:
        locked.signer.status === 'sent' || locked.signer.status === 'ready' ? 'viewed' : locked.signer.status,
      ip: sc.ip,
      userAgent: sc.userAgent,
      now: sc.now,
    });
    await audit(tx, sc, { r: locked, type: 'signer.viewed' });
    await recordEvent(tx, scopeOfRequest(locked.request), {
      type: 'signer.viewed',
      objectType: 'signer',
      objectId: signer.id,
      now: sc.now,
    });
    return { ...locked, signer };
  });
}

/** The documents as page images behind signed links valid for a day. */
function documentPages(sc: SignerCtx, documents: SnapshotDocument[]) {
  return documents.map((d) => ({
    index: d.index,
    name: d.name,
    ...signingPages(
      sc.config,
      { ...d, page_sizes: snapshotPageRuns(d) },
      { now: sc.now, ttlSeconds: 24 * 3600 },
    ),
  }));
}

/** This signer's fields with their current values; `prefilled` marks the sender's values. */
function ownFields(snapshot: RequestSnapshot, signer: SignerRow) {
  const prefill = signer.prefill as Record<string, FieldValue>;
  const values = effectiveValues(signer);
  return signerFields(snapshot, signer.role).map((f) => ({
    ...f,
    value: values[f.name] ?? null,
    prefilled: prefill[f.name] !== undefined && prefill[f.name] !== null,
  }));
}

/** The codes of a link that no longer works although its request exists: its page shows the brand. */
const CLOSED_CODES = new Set(['signer_finished', 'not_open', 'template_archived']);

/** Issue 44: the refusal of a finished or closed link, with its request's brand for the page. */
async function withBrand(sc: SignerCtx, token: string, err: unknown): Promise<never> {
  if (err instanceof CoreError && CLOSED_CODES.has(err.code) && !err.details.brand) {
    const signer = await findSignerByTokenHash(sc.db, sha256Hex(token));
    const request = signer ? await findRequestViewById(sc.db, signer.signature_request_id) : undefined;
    const brand = request ? await requestBrand(sc.db, request) : undefined;
    if (brand) err.details.brand = signingBrandOf(brand);
  }
  throw err;
}

/** Issue 46: the other roles' fields, as the page's form evaluation reads them (no areas, no values). */
function otherFormFields(snapshot: RequestSnapshot, role: string | null) {
  return snapshot.fields.filter((f) => f.role !== role).map(({ id: _id, areas: _areas, ...f }) => f);
}

/** signing.open: the snapshot for this signer; records `viewed` when the document is shown. */
export async function openSigning(
  sc: SignerCtx,
  token: string,
  { session, hosted }: { session?: string | undefined; hosted?: boolean | undefined } = {},
) {
  // The template editor's preview: the signing page as a role would see the template (nothing saved).
  if (isPreviewToken(token)) return openTemplatePreview(sc, token);
  let r = await resolve(sc.db, token, sc.now).catch((err: unknown) => withBrand(sc, token, err));
  // Issue 47: a hosted page opens only on the host's device (its cookie), never elsewhere.
  const host = hosted ? await hostOf(sc.db, sc, r.signer) : undefined;
  if (hosted && !host) throw hostedElsewhere();
  const unlocked = await sessionValid(sc.db, sc, { signer: r.signer, session, hosted });
  const visible = unlocked && r.signer.status !== 'waiting';
  if (visible) r = await recordViewed(sc, token, r);
  const snapshot = r.request.snapshot as RequestSnapshot;
  const { locale, source } = await readerLocale(sc.db, {
    signer: r.signer,
    request: r.request,
    acceptLanguage: sc.acceptLanguage,
  });
  const brand = await requestBrand(sc.db, r.request);
  return {
    object: 'signing_session' as const,
    status: r.signer.status,
    preview: false,
    request: {
      id: r.request.id,
      status: effectiveStatus(r.request, sc.now),
      title: snapshot.template.name,
      message: r.request.message,
      expires_at: r.request.expires_at?.toISOString() ?? null,
      test_mode: r.request.environment === 'test',
    },
    signer: {
      id: r.signer.id,
      name: r.signer.name,
      email: r.signer.email,
      role: r.signer.role,
      kind: r.signer.kind,
      code_channel: codeBySms(r.signer) ? ('sms' as const) : ('email' as const),
    },
    code_required: !unlocked,
    ...(host ? { hosted_by: { name: host.host_name, email: host.host_email } } : {}),
    ...(r.request.allow_delegation ? { allow_delegation: true } : {}),
    documents: visible ? documentPages(sc, snapshot.documents) : [],
    fields: visible ? ownFields(snapshot, r.signer) : [],
    filled_by_others: visible
      ? filledByOthers(snapshot, await loadSigners(sc.db, r.request.id), r.signer)
      : [],
    ...(visible && hasFormLogic(snapshot) ? { form_fields: otherFormFields(snapshot, r.signer.role) } : {}),
    locale,
    locale_source: source,
    consent_text: consentText(locale),
    redirect_url: r.signer.redirect_url ?? r.request.redirect_url,
    ...(brand ? { brand: signingBrandOf(brand) } : {}),
  };
}
