import { escapeHtml } from '../mail.ts';
import { LOGO_CID } from './sender.ts';

// What a brand changes in the email layout (issue 44 item 2; emails.ts calls these): a header with
// the logo (inline, `cid:brand-logo`) and the display name, the button in the primary colour, and
// the support contact and legal footer at the foot. Every brand text is escaped here; nothing says
// "Powered by".

export interface MailBrand {
  name: string;
  hasLogo: boolean;
  primaryColor: string;
  accentColor: string;
  supportEmail: string | null;
  supportUrl: string | null;
  legalFooter: string | null;
}

/** Marks an HTML part that carries a brand's header already. */
export const BRAND_MARK = 'data-brand="header"';

/** The header of the HTML part: logo and name, or nothing without a brand. */
export function brandHeaderHtml(brand: MailBrand | null | undefined): string {
  if (!brand) return '';
  const name = escapeHtml(brand.name);
  const logo = brand.hasLogo
    ? `<img src="cid:${LOGO_CID}" alt="${name}" style="max-height:48px;max-width:240px;vertical-align:middle;margin-inline-end:12px">`
    : '';
  return `<div ${BRAND_MARK} style="padding:12px 0;border-bottom:3px solid ${brand.primaryColor};margin-bottom:16px">${logo}<strong style="font-size:18px;vertical-align:middle">${name}</strong></div>\n`;
}

/** The button's background: the brand's primary colour (checked for contrast with white text). */
export const buttonColor = (brand: MailBrand | null | undefined): string => brand?.primaryColor ?? '#1f6feb';

/** The lines a brand adds at the foot: its support contact and its legal footer. */
export function brandFooterLines(brand: MailBrand | null | undefined): string[] {
  if (!brand) return [];
  const support = [brand.supportEmail, brand.supportUrl].filter((x): x is string => !!x).join(' · ');
  return [...(support ? [support] : []), ...(brand.legalFooter ? [brand.legalFooter] : [])];
}

export function brandFooterHtml(brand: MailBrand | null | undefined): string {
  return brandFooterLines(brand)
    .map((line) => `<p style="font-size:12px;color:#57606a">${escapeHtml(line).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}
