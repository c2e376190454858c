import type { Executor, MailRow } from '@esign/db';
import { findBrand } from '@esign/db/queries/brands';
import type { Config } from '../../config.ts';

// How a queued email goes out under its brand (issue 44 item 4): the From display name (with the
// operator's address unless the operator allows the brand's own, ALLOW_BRAND_FROM_ADDRESS), and
// the brand's logo inline as `cid:brand-logo` when the HTML part shows it. Mail clients block
// remote images and most drop data: URIs; an inline part shows everywhere and fetches nothing.

/** The content id the email layout's logo refers to. */
export const LOGO_CID = 'brand-logo';

/** The address inside MAIL_FROM (`Name <address>` or a bare address). */
function mailFromAddress(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1]?.trim() ?? mailFrom.trim();
}

export interface SenderParts {
  from: string | { name: string; address: string };
  attachments?: { filename: string; content: Buffer; contentType: string; cid: string }[];
}

export async function brandedSender(
  db: Executor,
  config: Config,
  mail: Pick<MailRow, 'from_name' | 'from_address' | 'brand_id' | 'account_id' | 'environment' | 'html_body'>,
): Promise<SenderParts> {
  const from = mail.from_name
    ? { name: mail.from_name, address: mail.from_address ?? mailFromAddress(config.MAIL_FROM) }
    : config.MAIL_FROM;
  if (!mail.brand_id || !mail.account_id || !mail.environment || !mail.html_body.includes(`cid:${LOGO_CID}`))
    return { from };
  const brand = await findBrand(
    db,
    { accountId: mail.account_id, environment: mail.environment },
    mail.brand_id,
  );
  if (!brand?.logo || !brand.logo_type) return { from };
  const filename = brand.logo_type === 'image/png' ? 'logo.png' : 'logo.jpg';
  return {
    from,
    attachments: [{ filename, content: brand.logo, contentType: brand.logo_type, cid: LOGO_CID }],
  };
}
