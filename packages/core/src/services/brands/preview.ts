import type { Executor } from '@esign/db';
import { findBrand } from '@esign/db/queries/brands';
import type { Locale } from '@esign/i18n';
import type { Scope } from '../../context.ts';
import type { BrandEmailKind } from '../../contracts/brand-email.ts';
import { notFound } from '../../errors.ts';
import { brandedInvitationEmail } from './branded-mail.ts';
import { checkEmailTexts } from './email-texts.ts';
import { logoDataUri } from './logo.ts';
import { LOGO_CID } from './sender.ts';

// The dashboard's preview of a brand's email (issue 44 item 3): the very function that composes
// the email a signer receives (brandedInvitationEmail), over sample data, in any of the nine
// languages, with the words being edited when given (checked as a save checks them). The one
// difference from the sent email: the logo's `cid:` reference (an inline part of the message)
// becomes the logo's data: URI, so a browser shows it.

/** The sample values of a preview (documented in docs/branding.md). */
const PREVIEW_SAMPLE = {
  signerName: 'Alex Sample',
  signerEmail: 'alex@example.com',
  title: 'Service agreement',
  senderName: 'Sam Sender',
  signingUrl: 'https://sign.example.com/s/sample-link',
  expiresAt: new Date('2030-01-31T17:00:00Z'),
} as const;

const KIND_OF = { invitation: 'invitation', reminder: 'reminder', next_signer: 'next_signer' } as const;

export async function previewBrandEmail(
  db: Executor,
  scope: Scope,
  input: {
    id: number;
    kind: BrandEmailKind;
    locale: Locale;
    text?: { subject: string; body: string } | undefined;
  },
): Promise<{ subject: string; text: string; html: string }> {
  const row = await findBrand(db, scope, input.id);
  if (!row) throw notFound('Brand', input.id);
  const texts = { ...row.email_texts };
  if (input.text) {
    checkEmailTexts({ [input.kind]: { [input.locale]: input.text } });
    texts[input.kind] = { ...texts[input.kind], [input.locale]: input.text };
  }
  const mail = brandedInvitationEmail({
    kind: KIND_OF[input.kind],
    locale: input.locale,
    ...PREVIEW_SAMPLE,
    message: null,
    handedOver: null,
    brand: { ...row, email_texts: texts },
  });
  const logo = logoDataUri(row);
  return { ...mail, html: logo ? mail.html.split(`cid:${LOGO_CID}`).join(logo) : mail.html };
}
