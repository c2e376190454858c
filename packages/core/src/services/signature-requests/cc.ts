import { randomBytes } from 'node:crypto';
import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import {
  findCcByTokenHash,
  findRecipientDefaults,
  insertRequestRecipients,
  type RecipientDefaults,
  type RecipientRef,
  type RequestRecipientInsert,
  saveRecipientDefaults,
} from '@esign/db/queries/recipients';
import { type Locale, t } from '@esign/i18n';
import type { Config } from '../../config.ts';
import type { Actor, Scope } from '../../context.ts';
import type { CcView } from '../../contracts/recipients.ts';
import type { CreateSignatureRequestInput } from '../../contracts/signature-requests.ts';
import { sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import { requestBrand, signingBrandOf } from '../brands/branded-mail.ts';
import { queueRequestMail } from '../brands/request-mail.ts';
import { localeLayout } from '../emails.ts';
import { downloadName, signFileLink } from '../file-links.ts';
import { readerLocale } from '../locale.ts';
import type { ProducedFiles, RequestSnapshot } from '../request-model.ts';
import type { ServiceContext } from '../service-context.ts';
import { senderNameOf } from './queries.ts';
import { effectiveStatus } from './status.ts';

// Issue 34 item 1, CC recipients, and the addresses of item 4 (notify), as the request is sent:
// the account's defaults are added to the addresses given (each address once, as first spelled),
// the recipients are written with the request, each CC gets an email with a read-only link (a
// random token of its own, stored as its SHA-256 only; it is no signer's token, so no signing
// procedure accepts it), and the audit trail names them. All in the send's transaction.

/** A request's copied addresses, as the Signature request object shows them. */
export interface RequestRecipients {
  cc: string[];
  notify: string[];
}

/** The addresses given then the defaults, each once (case-insensitive), in that order. */
function mergeAddresses(...lists: (readonly string[] | undefined)[]): string[] {
  const seen = new Map<string, string>();
  for (const list of lists)
    for (const address of list ?? []) {
      const key = address.trim().toLowerCase();
      if (key && !seen.has(key)) seen.set(key, address.trim());
    }
  return [...seen.values()];
}

const ccViewUrl = (config: Config, token: string) => `${config.PUBLIC_URL}/cc/${token}`;

/**
 * A CC recipient's email, in the request's language (its `locale`, else the account's default:
 * a copied address is no signer with a language of its own), the signers' names listed as that
 * language lists them.
 */
function ccSentEmail(o: {
  locale: Locale;
  title: string;
  sender: string;
  url: string;
  signers: (string | null)[];
  test: boolean;
}) {
  const { locale } = o;
  const names = o.signers.map((n) => n ?? t(locale, 'mail.cc.a_signer'));
  const values = { title: o.title, sender: o.sender };
  const body = localeLayout({
    paragraphs: [
      t(locale, 'mail.hello'),
      names.length
        ? t(locale, 'mail.cc.lead_to', {
            ...values,
            signers: new Intl.ListFormat(locale, { type: 'conjunction' }).format(names),
          })
        : t(locale, 'mail.cc.lead', values),
      t(locale, 'mail.cc.body'),
    ],
    link: { url: o.url, label: t(locale, 'mail.cc.button') },
    footer: t(locale, 'mail.cc.footer'),
    locale,
  });
  return { subject: t(locale, o.test ? 'mail.cc.subject_test' : 'mail.cc.subject', values), ...body };
}

/** What the send's hook reads of its batch (create.ts's SendBatch, which it is given). */
interface RecipientBatch {
  actor: Actor;
  scope: Scope;
  config: Config;
  now: Date;
  recipientDefaults?: RecipientDefaults | null;
  /** The account's default signer language when the send read it (undefined: read it). */
  accountLocale?: string | null;
}

/** What it reads and adds to of each request written (create.ts's WrittenRequest). */
interface WrittenForRecipients {
  request: SignatureRequestRow;
  signers: SignerRow[];
  mailIds: number[];
  recipients?: RequestRecipients;
}

async function writeOne(
  tx: Tx,
  b: RecipientBatch,
  o: { written: WrittenForRecipients; recipients: RequestRecipients; sender: string },
): Promise<number[]> {
  const { request, signers } = o.written;
  const base = {
    signature_request_id: request.id,
    account_id: request.account_id,
    environment: request.environment,
  };
  const tokens = o.recipients.cc.map(() => randomBytes(32).toString('base64url'));
  const rows: RequestRecipientInsert[] = [
    ...o.recipients.cc.map((email, i) => ({
      ...base,
      kind: 'cc' as const,
      email,
      token_hash: sha256Hex(tokens[i]!),
    })),
    ...o.recipients.notify.map((email) => ({ ...base, kind: 'notify' as const, email, token_hash: null })),
  ];
  await insertRequestRecipients(tx, rows);
  await recordAudit(tx, b.scope, {
    type: 'request.recipients',
    by: { kind: 'actor', actor: b.actor },
    signatureRequestId: request.id,
    data: { cc: o.recipients.cc, notify: o.recipients.notify },
    now: b.now,
  });
  const title = (request.snapshot as RequestSnapshot).template.name;
  const names = signers.map((s) => s.name ?? s.email ?? s.role);
  const mailIds: number[] = [];
  const { locale } = o.recipients.cc.length
    ? await readerLocale(tx, {
        request,
        ...(b.accountLocale !== undefined ? { account: b.accountLocale } : {}),
      })
    : { locale: 'en' as const };
  for (const [i, to] of o.recipients.cc.entries()) {
    const url = ccViewUrl(b.config, tokens[i]!);
    const mail = ccSentEmail({
      locale,
      title,
      sender: o.sender,
      url,
      signers: names,
      test: request.environment === 'test',
    });
    mailIds.push(
      await queueRequestMail(
        tx,
        { config: b.config, request },
        {
          kind: 'cc',
          to,
          replyTo: request.reply_to,
          ...mail,
          accountId: request.account_id,
          environment: request.environment,
        },
      ),
    );
  }
  return mailIds;
}

/**
 * The send's hook (writePlannedRequests): each request's recipients with the account's defaults,
 * written, audited and (cc) emailed in the caller's transaction. The CC emails' ids join the
 * request's `mailIds`, so they go out right after the commit like the invitations.
 */
export async function writeRecipients(
  tx: Tx,
  b: RecipientBatch,
  items: { inputs: CreateSignatureRequestInput[]; written: WrittenForRecipients[] },
): Promise<void> {
  const defaults =
    b.recipientDefaults !== undefined
      ? (b.recipientDefaults ?? { cc: [], notify: [] })
      : await findRecipientDefaults(tx, b.actor.accountId);
  const sender = b.actor.userName ?? b.actor.userEmail;
  for (const [i, written] of items.written.entries()) {
    const input = items.inputs[i]!;
    const recipients = {
      cc: mergeAddresses(input.cc, defaults.cc),
      notify: mergeAddresses(input.notify, defaults.notify),
    };
    written.recipients = recipients;
    if (!recipients.cc.length && !recipients.notify.length) continue;
    written.mailIds.push(...(await writeOne(tx, b, { written, recipients, sender })));
  }
}

/** A request's addresses as RequestView.recipients holds them (the create answer, built from the rows written). */
export function recipientRefs(r: RequestRecipients | undefined): RecipientRef[] {
  return [
    ...(r?.cc ?? []).map((email) => ({ kind: 'cc' as const, email })),
    ...(r?.notify ?? []).map((email) => ({ kind: 'notify' as const, email })),
  ];
}

function sealedLinks(
  config: Config,
  request: SignatureRequestRow,
  o: { now: Date; locale: Locale; brand: string | null },
) {
  const { now, locale, brand } = o;
  const title = (request.snapshot as RequestSnapshot).template.name;
  const files = (request.documents as ProducedFiles | null)?.files ?? [];
  const link = (k: string, n: string) =>
    signFileLink(config, { k, t: 'application/pdf', n: `${n}.pdf` }, { now });
  return {
    documents: files
      .filter((f) => f.kind === 'document')
      .map((f) => ({ name: f.name, url: link(f.storage_key, downloadName(locale, f, { title, brand })) })),
    audit_trail_url: request.audit_trail_storage_key
      ? link(
          request.audit_trail_storage_key,
          downloadName(locale, { kind: 'audit_trail', name: '' }, { title, brand }),
        )
      : null,
  };
}

/**
 * A CC recipient's read-only link: the request's title and status, who has signed so far, and the
 * documents (the originals; once completed and sealed, the signed documents and the audit trail).
 * No signer's link, email, phone or values. An unknown token is `404 not_found`.
 */
export async function viewAsCc(
  sc: Pick<ServiceContext, 'db' | 'config' | 'now'> & { acceptLanguage?: string | null },
  token: string,
): Promise<CcView> {
  const found = await findCcByTokenHash(sc.db, sha256Hex(token));
  if (!found) throw new CoreError('not_found', 'This link is not valid');
  const { request, signers } = found;
  const now = sc.now();
  const status = effectiveStatus(request, now);
  const snapshot = request.snapshot as RequestSnapshot;
  const sealed = status === 'completed' && request.sealing_status === 'done';
  const originals = snapshot.documents.map((d) => ({
    name: d.name,
    url: signFileLink(sc.config, { k: d.storage_key, t: 'application/pdf', n: `${d.name}.pdf` }, { now }),
  }));
  // The language of the CC emails (the request's, else the account's), else the browser's (42.6).
  const { locale } = await readerLocale(sc.db, { request, acceptLanguage: sc.acceptLanguage ?? null });
  const brand = await requestBrand(sc.db, request);
  return {
    object: 'cc_view',
    locale,
    title: snapshot.template.name,
    status,
    sender: request.created_by_user_id ? await senderNameOf(sc.db, request) : null,
    signers: signers.map((s) => ({
      role: s.role,
      name: s.name,
      status: s.status,
      signed_at: s.signed_at?.toISOString() ?? null,
    })),
    ...(sealed
      ? sealedLinks(sc.config, request, { now, locale, brand: brand?.name ?? null })
      : { documents: originals, audit_trail_url: null }),
    created_at: request.created_at.toISOString(),
    completed_at: request.completed_at?.toISOString() ?? null,
    brand: brand ? signingBrandOf(brand) : null,
  };
}

const defaultsDto = (d: RecipientDefaults) => ({
  object: 'recipient_defaults' as const,
  cc: d.cc,
  notify: d.notify,
});

/** The account's default recipients (Account page). */
export async function getRecipientDefaults(sc: Pick<ServiceContext, 'db'>, actor: Actor) {
  return defaultsDto(await findRecipientDefaults(sc.db, actor.accountId));
}

/** Sets the account's default recipients (admins; Account page), each address once. */
export async function setRecipientDefaults(
  sc: Pick<ServiceContext, 'db' | 'now'>,
  actor: Actor,
  input: RecipientDefaults,
) {
  const saved = await saveRecipientDefaults(sc.db, actor.accountId, {
    cc: mergeAddresses(input.cc),
    notify: mergeAddresses(input.notify),
    now: sc.now(),
  });
  return defaultsDto(saved);
}
