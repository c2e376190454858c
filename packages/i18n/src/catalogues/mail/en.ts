/**
 * The emails to signers, and to the addresses the sender copied (cc), English: the source of the
 * other languages'. Each language's catalogue spreads its own (issue 43: the catalogues split by
 * surface; the signing page's bundle leaves them out).
 */
export const mailEn = {
  // Emails to signers
  'mail.hello': 'Hello,',
  'mail.hello_name': 'Hello {name},',
  'mail.invite.lead': '{sender} asks you to review and sign "{title}".',
  'mail.handed_over': '{from} passed this on to you to sign in their place. Their reason: {reason}',
  'mail.invite.subject': 'Please sign "{title}"',
  'mail.next.lead': 'It is your turn to sign "{title}", sent by {sender}.',
  'mail.reminder.lead': 'A reminder: {sender} is waiting for your signature on "{title}".',
  'mail.reminder.subject': 'Reminder: please sign "{title}"',
  'mail.expires': 'The link expires on {date}.',
  'mail.button': 'Review and sign',
  'mail.or_open': 'Or open: {url}',
  'mail.private': 'This link is private: anyone holding it can sign in your place. Do not forward it.',
  'mail.code.subject': '{code} is your signing code',
  'mail.code.body': 'Your code to open "{title}" is {code}.',
  'mail.code.valid':
    'It is valid for {minutes, plural, one {# minute} other {# minutes}}. If you did not ask for it, ignore this email.',
  'mail.code.footer': 'Never share this code.',
  'mail.done.subject': 'Completed: {title}',
  'mail.done.subject_test': '[Test] Completed: {title}',
  'mail.done.lead':
    'Everyone has signed "{title}". Your signed copy and the audit trail are ready to download:',
  'mail.done.until': 'These links work until {date}.',
  'mail.done.test': 'This was sent in test mode: the documents are not legally binding.',
  'mail.done.audit_trail': 'Audit trail',
  'mail.done.combined': 'Everything in one file',

  // A signer's own signed copy, and the emails to addresses the sender copied (cc), in the request's language
  'mail.copy.subject': 'Your signed copy: {title}',
  'mail.copy.subject_test': '[Test] Your signed copy: {title}',
  'mail.copy.lead':
    'You signed "{title}". Here is your signed copy; once everyone has signed you will get the final documents and the audit trail.',
  'mail.cc.subject': 'Copy: "{title}" was sent for signature',
  'mail.cc.subject_test': '[Test] Copy: "{title}" was sent for signature',
  'mail.cc.lead': '{sender} sent "{title}" for signature and copied you. You are not asked to sign.',
  'mail.cc.lead_to':
    '{sender} sent "{title}" for signature to {signers} and copied you. You are not asked to sign.',
  'mail.cc.body':
    'The link below shows the documents and who has signed so far. When everyone has signed you will get the signed documents and the audit trail.',
  'mail.cc.button': 'View the request (read only)',
  'mail.cc.footer': 'This link shows the request read-only; it cannot be used to sign. Do not forward it.',
  'mail.cc.done_lead':
    'Everyone has signed "{title}", on which you were copied. The signed documents and the audit trail:',
  'mail.cc.done_footer': 'You get this email because the sender copied you on this request.',
  'mail.cc.a_signer': 'a signer',
} as const;

/** The keys of these messages, which every language's file has. */
export type MailMessages = Record<keyof typeof mailEn, string>;
