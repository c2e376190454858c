import { randomInt } from 'node:crypto';
import type {
  Executor,
  LinkVisitRow,
  SignatureRequestRow,
  SignerRow,
  TemplateLinkRow,
  TemplateRow,
  Tx,
} from '@esign/db';
import {
  findLinkByTokenHash,
  findLinkTemplate,
  findTemplateLink,
  insertLinkVisit,
  lockLinkVisit,
  setLinkVisitAttempts,
  setLinkVisitCode,
  takeLinkUse,
  useLinkVisit,
} from '@esign/db/queries/links';
import type { Locale, MessageKey } from '@esign/i18n';
import { sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { actingUser } from '../acting-user.ts';
import { recordAudit } from '../audit.ts';
import { requestBrand, signingBrandOf } from '../brands/branded-mail.ts';
import { queueRequestMail } from '../brands/request-mail.ts';
import { oneTimeCodeEmail } from '../emails.ts';
import { sendMailNow } from '../mail.ts';
import { hmac, safeEqual } from '../secret.ts';
import type { ServiceContext } from '../service-context.ts';
import { insertSignatureRequest } from '../signature-requests/create.ts';
import { signingUrl } from '../signature-requests/invitations.ts';
import { checkVisitLimits } from './limits.ts';
import { LINK_CODE_MAX_ATTEMPTS, LINK_CODE_TTL_MS } from './policy.ts';
import { checkLinkRoles } from './settings.ts';

// A visit to a template's public signing link: the visitor gives a name and an email, confirms the
// email with an emailed code, and gets a request of their own (source `link`) to sign at once.

export interface LinkPage {
  object: 'signing_link_page';
  /** `open`; `off` when the owner turned it off or archived the template; `full` at the owner's cap. */
  status: 'open' | 'off' | 'full';
  title: string;
  role: string;
  brand: ReturnType<typeof signingBrandOf> | null;
}

interface Resolved {
  link: TemplateLinkRow;
  template: TemplateRow;
}

/** The link a token names, or 404 (an unknown token, or one replaced by a new address). */
async function resolveLink(db: Executor, token: string, lock = false): Promise<Resolved> {
  const link = await findLinkByTokenHash(db, sha256Hex(token), { lock });
  if (!link)
    throw new CoreError('not_found', 'This signing link does not exist or was replaced by a new one');
  return { link, template: await findLinkTemplate(db, link.template_id) };
}

/** The template's roles still match the link's (a role added since needs a pre-assigned signer). */
function rolesMatch({ link, template }: Resolved): boolean {
  try {
    checkLinkRoles(template, link.role, link.preset_signers);
    return true;
  } catch {
    return false;
  }
}

function statusOf(r: Resolved): LinkPage['status'] {
  const { link, template } = r;
  if (!link.enabled || template.archived_at || !rolesMatch(r)) return 'off';
  if (link.max_uses !== null && link.uses >= link.max_uses) return 'full';
  return 'open';
}

function assertOpen(r: Resolved): void {
  const status = statusOf(r);
  if (status === 'off' && !rolesMatch(r))
    throw new CoreError(
      'not_open',
      "This signing link is not available: the template's roles changed since it was set up",
    );
  if (status === 'off') throw new CoreError('not_open', 'This signing link has been turned off by its owner');
  if (status === 'full')
    throw new CoreError(
      'not_open',
      `This signing link has reached its limit of ${r.link.max_uses} signatures`,
    );
}

export async function openLink(sc: ServiceContext, token: string): Promise<LinkPage> {
  const r = await resolveLink(sc.db, token);
  const brand = await linkBrand(sc.db, r);
  return {
    object: 'signing_link_page',
    status: statusOf(r),
    title: r.template.name,
    role: r.link.role,
    brand: brand ? signingBrandOf(brand) : null,
  };
}

const codeHash = (sc: ServiceContext, visitId: number, code: string) =>
  hmac(sc.config, 'link-code', `${visitId}:${code}`).toString('hex');
/** The handle the visitor's browser keeps between asking for the code and entering it. */
const visitHandle = (sc: ServiceContext, visitId: number) =>
  `${visitId}.${hmac(sc.config, 'link-visit', String(visitId)).toString('base64url').slice(0, 22)}`;

function parseHandle(sc: ServiceContext, handle: string): number {
  const id = Number(handle.split('.')[0]);
  if (
    !Number.isSafeInteger(id) ||
    id <= 0 ||
    !safeEqual(Buffer.from(visitHandle(sc, id)), Buffer.from(handle))
  )
    throw codeRefused('This code request is unknown; ask for a new code', 'link.code_unknown');
  return id;
}

export interface VisitStart {
  name: string;
  email: string;
  ip: string | null;
  /** the language of the page the visitor reads: the code email's (issue 42.6) */
  locale?: Locale;
}

/** Issue 44: a link's pages and code email show its template's brand, else the account's default. */
const linkBrand = (db: Executor, r: Resolved) => requestBrand(db, { ...r.link, brand_id: null });

/** links.start: checks the rates and the cap, then emails a six-digit code. */
export async function startLinkVisit(sc: ServiceContext, token: string, visitor: VisitStart) {
  const now = sc.now();
  const { visit, mailId, expires } = await sc.db.transaction().execute(async (tx) => {
    const r = await resolveLink(tx, token, true);
    assertOpen(r);
    await checkVisitLimits(tx, r.link.template_id, { visitor, now });
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expires = new Date(now.getTime() + LINK_CODE_TTL_MS);
    const visitId = await insertLinkVisit(tx, {
      template_id: r.link.template_id,
      name: visitor.name,
      email: visitor.email,
      ip: visitor.ip,
      code_hash: 'pending',
      created_at: now,
      expires_at: expires,
    });
    await setLinkVisitCode(tx, visitId, codeHash(sc, visitId, code));
    const mail = oneTimeCodeEmail({
      title: r.template.name,
      code,
      minutes: LINK_CODE_TTL_MS / 60_000,
      ...(visitor.locale ? { locale: visitor.locale } : {}),
    });
    const { account_id, environment, template_id } = r.link;
    const request = { account_id, environment, template_id, brand_id: null, reply_to: null };
    const brand = (await linkBrand(tx, r)) ?? null;
    const mailId = await queueRequestMail(
      tx,
      { config: sc.config, request, brand },
      {
        kind: 'otp',
        to: visitor.email,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        accountId: r.link.account_id,
        environment: r.link.environment,
      },
    );
    return { visit: visitId, mailId, expires };
  });
  await sendMailNow(sc, [mailId]);
  return { visit: visitHandle(sc, visit), email: visitor.email, expires_at: expires.toISOString() };
}

/** A refusal of the visitor's code: the English message and the catalogue's (the link pages word it). */
const codeRefused = (message: string, key: MessageKey) =>
  new CoreError('invalid_request', message, { messageKey: key });

/** A wrong or stale code commits its count first, then fails (so attempts cannot be replayed). */
async function checkCode(sc: ServiceContext, visitId: number, code: string) {
  const now = sc.now();
  const outcome = await sc.db.transaction().execute(async (tx) => {
    const v = await lockLinkVisit(tx, visitId);
    if (!v)
      return { error: codeRefused('This code request is unknown; ask for a new code', 'link.code_unknown') };
    if (v.used_at)
      return {
        error: codeRefused(
          'This code was already used; open the link again to sign another copy',
          'link.code_used',
        ),
      };
    if (v.expires_at <= now)
      return { error: codeRefused('This code has expired; ask for a new one', 'link.code_expired') };
    if (v.attempts >= LINK_CODE_MAX_ATTEMPTS)
      return { error: codeRefused('Too many wrong codes: ask for a new code', 'link.code_too_many') };
    if (!safeEqual(Buffer.from(codeHash(sc, v.id, code)), Buffer.from(v.code_hash))) {
      await setLinkVisitAttempts(tx, v.id, v.attempts + 1);
      return {
        error: codeRefused('That code is not right; check the email and try again', 'link.code_wrong'),
      };
    }
    return { visit: v };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.visit;
}

/**
 * Inside the request's transaction: one use of the link taken (one statement: never past its cap,
 * never on a link turned off), the visit used once, the audit entry written.
 */
function claimVisit(visit: LinkVisitRow, r: Resolved, now: Date) {
  return async (tx: Tx, request: SignatureRequestRow, signers: SignerRow[]) => {
    const link = await takeLinkUse(tx, r.link.template_id);
    if (!link) {
      // No use left: say why, as the link stands now (turned off or full).
      assertOpen({ link: (await findTemplateLink(tx, r.link.template_id)) ?? r.link, template: r.template });
      throw new CoreError('not_open', 'This signing link is not available');
    }
    // Roles and archive state checked on the link as it was before this use.
    assertOpen({ link: { ...link, uses: link.uses - 1 }, template: r.template });
    if (!(await useLinkVisit(tx, visit.id, { requestId: request.id, now })))
      throw codeRefused('This code was already used', 'link.code_used');
    const signer = visitorSigner(signers, link.role);
    await recordAudit(
      tx,
      { accountId: link.account_id, environment: link.environment },
      {
        type: 'link.email_confirmed',
        by: { kind: 'signer', signerId: signer.id, ip: visit.ip, userAgent: null },
        signatureRequestId: request.id,
        signerId: signer.id,
        templateId: link.template_id,
        data: { email: visit.email, name: visit.name },
        now,
      },
    );
  };
}

/** The visitor among a link request's signers: the one in the link's role. */
const visitorSigner = (signers: SignerRow[], role: string): SignerRow => {
  const signer = signers.find((s) => s.role === role);
  if (!signer) throw new Error(`The link's request has no signer in role ${role}`);
  return signer;
};

/** links.confirm: the right code makes the visitor's request and returns where to sign it. */
export async function confirmLinkVisit(
  sc: ServiceContext,
  {
    token,
    visit: handle,
    code,
    locale,
  }: { token: string; visit: string; code: string; locale?: Locale | undefined },
) {
  const r = await resolveLink(sc.db, token);
  assertOpen(r);
  const visitId = parseHandle(sc, handle);
  const visit = await checkCode(sc, visitId, code);
  if (visit.template_id !== r.link.template_id)
    throw codeRefused('This code belongs to another link', 'link.code_other_link');
  // The owner acts through the link: the user who turned it on (their name signs the emails).
  const actor = await actingUser(
    sc.db,
    { accountId: r.link.account_id, environment: r.link.environment },
    { userId: r.link.user_id },
  );
  const firstRole = r.template.roles[0] === r.link.role;
  const { request, signers } = await insertSignatureRequest(sc, actor, {
    input: {
      template_id: r.template.id,
      signers: [
        // The visitor's language (the page's) is theirs: invitation, signing page, signed copy (42.6).
        { role: r.link.role, name: visit.name, email: visit.email, ...(locale ? { locale } : {}) },
        ...r.link.preset_signers.map((p) => ({
          role: p.role,
          email: p.email,
          ...(p.name ? { name: p.name } : {}),
        })),
      ],
      // The visitor signs first: sequential when theirs is the first role, else everyone at once.
      signing_order: firstRole ? 'sequential' : 'parallel',
      // The visitor gets their link by email too (to come back to it); pre-assigned signers are
      // invited when their turn comes.
      send_email: true,
      require_email_otp: false,
      embed: false,
    },
    source: 'link',
    within: claimVisit(visit, r, sc.now()),
  });
  const signer = visitorSigner(signers, r.link.role);
  return { signature_request_id: request.id, signing_url: signingUrl(sc.config, signer.token_nonce!) };
}
