// The vocabulary of a brand's own email words (issue 44 item 3; services/brands/email-texts.ts).

/** The email kinds a brand may word itself, and the variables each may use. */
export const EMAIL_KINDS = ['invitation', 'reminder', 'next_signer'] as const;
export type BrandEmailKind = (typeof EMAIL_KINDS)[number];

/** Every variable, with what it holds (docs/branding.md lists the same). */
export const EMAIL_VARIABLES = {
  'signer.name': "the signer's name (empty when unknown)",
  'signer.email': "the signer's email address",
  'request.title': 'the name of the document set (the template name)',
  'sender.name': 'who sent the request',
  link: "the signer's private signing link",
  expires_at: "when the link stops working, in the signer's language (empty without an expiry)",
  'brand.name': "the brand's display name",
  'support.email': "the brand's support email (empty when unset)",
  'support.url': "the brand's support page (empty when unset)",
} as const;
export type EmailVariable = keyof typeof EMAIL_VARIABLES;

export const MAX_SUBJECT = 300;
export const MAX_BODY = 10_000;
