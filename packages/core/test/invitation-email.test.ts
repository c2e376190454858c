import { describe, expect, it } from 'vitest';
import { invitationEmail } from '../src/services/emails.ts';

// Issue 42 item 8: the sender's custom subject and body go with every invitation.
const base = {
  title: 'Lease',
  signerName: 'Bea',
  senderName: 'Ann',
  signingUrl: 'https://esign.example/s/abc',
  message: { subject: 'Please sign the lease', body: 'Thanks for moving in!' },
  expiresAt: null,
};

describe('issue 42: the custom message of a request', () => {
  it.each(['invitation', 'resend', 'next_signer'] as const)(
    'the %s email carries both the custom subject and the custom body',
    (kind) => {
      const mail = invitationEmail({ ...base, kind });
      expect(mail.subject).toBe('Please sign the lease');
      expect(mail.text).toContain('Thanks for moving in!');
    },
  );

  it('a reminder keeps its own subject and leaves the custom body out', () => {
    const mail = invitationEmail({ ...base, kind: 'reminder' });
    expect(mail.subject).not.toBe('Please sign the lease');
    expect(mail.subject).toContain('Lease');
    expect(mail.text).not.toContain('Thanks for moving in!');
  });

  it('without a custom subject, a next signer gets the localised invitation subject', () => {
    const mail = invitationEmail({ ...base, kind: 'next_signer', message: { body: 'Hi' }, locale: 'de' });
    expect(mail.subject).toBe(
      invitationEmail({ ...base, kind: 'invitation', message: null, locale: 'de' }).subject,
    );
  });
});
