import type { BrandRow, SignatureRequestRow, Tx } from '@esign/db';
import type { Config } from '../../config.ts';
import { type MailMessage, queueMail } from '../mail.ts';
import { brandIdentity, mailBrandOf, requestBrand } from './branded-mail.ts';
import {
  BRAND_MARK,
  brandFooterHtml,
  brandFooterLines,
  brandHeaderHtml,
  buttonColor,
  type MailBrand,
} from './mail-layout.ts';

// Every other email about a request (issue 44 item 2: the code, completion, the signer's copy, CC,
// notices, delegation) under the request's brand: its header (logo and name) and colour, its
// support contact and legal footer, and its sender identity (From name, Reply-To, optional From
// address). The invitations compose their brand themselves (branded-mail.ts, with the brand's own
// words); these are dressed here, after their words are written, so no email kind is left plain.

type Mail = { subject: string; text: string; html: string };

/** An email dressed in a brand: header after <body>, footer before </body>, the button's colour. */
function dressMail<T extends Mail>(mail: T, brand: MailBrand): T {
  if (mail.html.includes(BRAND_MARK)) return mail;
  const html = mail.html
    .replace(/<body([^>]*)>/, (body) => `${body}\n${brandHeaderHtml(brand)}`)
    .replace('</body>', `${brandFooterHtml(brand)}</body>`)
    .split(`background:${buttonColor(null)}`)
    .join(`background:${buttonColor(brand)}`);
  const footer = brandFooterLines(brand);
  const text = [brand.name, mail.text.trimEnd(), ...footer].join('\n\n');
  return { ...mail, html, text: `${text}\n` };
}

/**
 * Queues `mail` about `request` under its brand (its own, its template's, the account's default);
 * as plain as before when the account has none. `brand` skips the look-up when the caller has it.
 */
export async function queueRequestMail(
  tx: Tx,
  o: {
    config: Pick<Config, 'ALLOW_BRAND_FROM_ADDRESS'>;
    request: Pick<
      SignatureRequestRow,
      'account_id' | 'environment' | 'brand_id' | 'template_id' | 'reply_to'
    >;
    brand?: BrandRow | null;
  },
  mail: MailMessage,
): Promise<number> {
  const brand = o.brand !== undefined ? o.brand : await requestBrand(tx, o.request);
  if (!brand) return queueMail(tx, mail);
  const identity = brandIdentity(brand, {
    allowFromAddress: o.config.ALLOW_BRAND_FROM_ADDRESS,
    requestReplyTo: mail.replyTo ?? null,
  });
  return queueMail(tx, { ...dressMail(mail, mailBrandOf(brand)), ...identity });
}
