import type { BrandRow, Executor, SignatureRequestRow } from '@esign/db';
import { findEffectiveBrand } from '@esign/db/queries/brands';
import { formatDateTime, type Locale, t } from '@esign/i18n';
import type { BrandEmailKind } from '../../contracts/brand-email.ts';
import { type InvitationMail, invitationEmail, localeLayout } from '../emails.ts';
import { escapeHtml } from '../mail.ts';
import { type EmailValues, renderText } from './email-texts.ts';
import { logoDataUri } from './logo.ts';
import type { MailBrand } from './mail-layout.ts';

// The emails that carry a signing link, under the request's brand (issue 44 items 2 to 4): the
// brand's layout always, and the brand's own words for the kind and the signer's language when it
// has them (else the service's words). Also what the dashboard's preview shows: the same function.

/** The brand a request's emails and pages show: its own choice, else its template's, else the default. */
export function requestBrand(
  db: Executor,
  request: Pick<SignatureRequestRow, 'account_id' | 'environment' | 'brand_id' | 'template_id'>,
): Promise<BrandRow | undefined> {
  return findEffectiveBrand(
    db,
    { accountId: request.account_id, environment: request.environment },
    { requestBrandId: request.brand_id, templateId: request.template_id },
  );
}

/** What the signer's pages show of a brand. */
export function signingBrandOf(row: BrandRow) {
  return {
    name: row.name,
    logo: logoDataUri(row),
    primary_color: row.primary_color,
    accent_color: row.accent_color,
    support_email: row.support_email,
    support_url: row.support_url,
  };
}

export function mailBrandOf(row: BrandRow): MailBrand {
  return {
    name: row.name,
    hasLogo: !!row.logo,
    primaryColor: row.primary_color,
    accentColor: row.accent_color,
    supportEmail: row.support_email,
    supportUrl: row.support_url,
    legalFooter: row.legal_footer,
  };
}

/** The sender identity of a brand's emails (From display name and address, Reply-To). */
export function brandIdentity(
  row: BrandRow | undefined,
  o: { allowFromAddress: boolean; requestReplyTo: string | null },
): { fromName: string | null; fromAddress: string | null; replyTo: string | null; brandId: number | null } {
  return {
    fromName: row ? (row.from_name ?? row.name) : null,
    fromAddress: row && o.allowFromAddress ? row.from_address : null,
    replyTo: o.requestReplyTo ?? row?.reply_to ?? null,
    brandId: row?.id ?? null,
  };
}

type InvitationOptions = Parameters<typeof invitationEmail>[0];
/** An invitation's options with the brand's row (its layout is derived here). */
type BrandedOptions = Omit<InvitationOptions, 'brand'> & { signerEmail: string | null; brand: BrandRow };

const TEXT_KIND: Record<InvitationOptions['kind'], BrandEmailKind> = {
  invitation: 'invitation',
  resend: 'invitation',
  next_signer: 'next_signer',
  reminder: 'reminder',
};

/** The variables' values of one invitation. */
function invitationValues(o: BrandedOptions): EmailValues {
  const locale: Locale = o.locale ?? 'en';
  return {
    'signer.name': o.signerName ?? '',
    'signer.email': o.signerEmail ?? '',
    'request.title': o.title,
    'sender.name': o.senderName,
    link: o.signingUrl,
    expires_at: o.expiresAt ? formatDateTime(locale, o.expiresAt) : '',
    'brand.name': o.brand.name,
    'support.email': o.brand.support_email ?? '',
    'support.url': o.brand.support_url ?? '',
  };
}

/**
 * An invitation (or reminder, or next-signer email) under a brand: its own words when it has them
 * for this kind and language, in its layout. The sender's per-request `message` still wins, as
 * without a brand.
 */
export function brandedInvitationEmail(o: BrandedOptions): InvitationMail {
  const brand = mailBrandOf(o.brand);
  const locale: Locale = o.locale ?? 'en';
  const own = o.brand.email_texts[TEXT_KIND[o.kind]]?.[locale];
  const senderWords = o.kind !== 'reminder' && (o.message?.body || o.message?.subject);
  if (!own || senderWords) return invitationEmail({ ...o, brand });
  const values = invitationValues(o);
  const body = localeLayout({
    paragraphs: renderText(own.body, values)
      .split(/\n{2,}/)
      .map((p) => p.trim())
      .filter(Boolean),
    link: null,
    footer: t(locale, 'mail.private'),
    locale,
    brand,
  });
  // The link written in the words becomes a real link in the HTML part.
  const url = escapeHtml(o.signingUrl);
  const html = body.html.split(url).join(`<a href="${url}" style="color:${brand.accentColor}">${url}</a>`);
  return { subject: renderText(own.subject, values).replace(/\s+/g, ' ').trim(), text: body.text, html };
}

/** What an audit trail's head shows of a request's brand (issue 44): its name and logo, or null. */
export async function trailBrandOf(
  db: Executor,
  request: Parameters<typeof requestBrand>[1],
): Promise<{ name: string; logo: string | null } | null> {
  const row = await requestBrand(db, request);
  return row ? { name: row.name, logo: logoDataUri(row) } : null;
}
