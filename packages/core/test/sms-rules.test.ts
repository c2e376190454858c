import { describe, expect, it } from 'vitest';
import { codeBySms, maskPhone } from '../src/services/sms/codes.ts';
import { signerChannels } from '../src/services/sms/delivery.ts';
import { normalisePhone } from '../src/services/sms/phone.ts';
import { smsText } from '../src/services/sms/texts.ts';
import { toCoreError } from '../src/trpc.ts';

// Issue 32: the pure rules of SMS delivery: phone numbers in E.164, which channels reach a signer,
// where a code goes, and the texts.

describe('issue 32: phone numbers are checked and normalised to E.164', () => {
  it('international formats become E.164', () => {
    expect(normalisePhone('+49 30 1234567', 'phone')).toBe('+49301234567');
    expect(normalisePhone('0049 (30) 123-4567', 'phone')).toBe('+49301234567');
    expect(normalisePhone(' +44 20.7946.0000 ', 'phone')).toBe('+442079460000');
    expect(normalisePhone('+1 (415) 555-2671', 'phone')).toBe('+14155552671');
  });

  it('an impossible number is 422 invalid_parameter naming the field', () => {
    for (const bad of [
      '+1 555',
      '+49 1',
      '030 1234567',
      'call me',
      '+999 1234567',
      '+49 30 1234567 ext 12',
    ]) {
      let error: unknown = null;
      try {
        normalisePhone(bad, 'signers[0].phone');
      } catch (err) {
        error = err;
      }
      expect(toCoreError(error).code, bad).toBe('invalid_parameter');
      expect(toCoreError(error).message).toContain('signers[0].phone');
    }
  });

  it('the signing page shows a texted code went to the country code and last two digits only', () => {
    expect(maskPhone('+49301234567')).toBe('+49 ••• 67');
  });
});

describe('issue 32: how a signer is reached', () => {
  const both = { email: 'a@example.com', phone: '+49301234567' };
  it('a signer with only a phone gets SMS; with only an email, email; whatever was asked', () => {
    expect(signerChannels({ email: null, phone: '+49301234567', delivery: null })).toEqual({
      email: false,
      sms: true,
    });
    expect(signerChannels({ email: null, phone: '+49301234567', delivery: 'email' })).toEqual({
      email: false,
      sms: true,
    });
    expect(signerChannels({ email: 'a@example.com', phone: null, delivery: 'sms' })).toEqual({
      email: true,
      sms: false,
    });
  });

  it('a signer with both gets email, plus SMS when the request asks (email_and_sms), or SMS alone (sms)', () => {
    expect(signerChannels({ ...both, delivery: null })).toEqual({ email: true, sms: false });
    expect(signerChannels({ ...both, delivery: 'email_and_sms' })).toEqual({ email: true, sms: true });
    expect(signerChannels({ ...both, delivery: 'sms' })).toEqual({ email: false, sms: true });
  });

  it('the code goes by SMS when the signer has no email or the sender asked for SMS', () => {
    expect(codeBySms({ email: null, phone: '+49301234567', delivery: null })).toBe(true);
    expect(codeBySms({ ...both, delivery: null })).toBe(false);
    expect(codeBySms({ ...both, delivery: 'email_and_sms' })).toBe(true);
    expect(codeBySms({ ...both, delivery: 'sms' })).toBe(true);
    expect(codeBySms({ email: 'a@example.com', phone: null, delivery: 'sms' })).toBe(false);
  });
});

describe('issue 32: SMS texts (one module, sms/texts.ts, from the catalogues)', () => {
  const url = 'https://sign.example.com/s/abc';
  const link = { senderName: 'Ann', title: 'Lease', url, expiresAt: null };

  it('an invitation carries the link on its own line; a code carries the code and its lifetime', () => {
    const text = smsText('invitation', link, 'en');
    expect(text).toContain('Ann asks you to sign "Lease"');
    expect(text.endsWith(`\n${url}`)).toBe(true);
    expect(smsText('reminder', link, 'en')).toMatch(/^Reminder/);
    expect(smsText('otp', { code: '123456', minutes: 10, senderName: 'Ann', title: 'Lease' }, 'en')).toBe(
      '123456 is your code to sign "Lease", sent by Ann. Valid for 10 minutes. Never share it.',
    );
    expect(
      smsText(
        'request.completed',
        { title: 'Lease', urls: [url], until: new Date('2030-01-01'), test: true },
        'en',
      ),
    ).toContain('test mode');
  });

  it("each SMS is in the reader's language, with its dates and plurals (German, Arabic)", () => {
    const expiresAt = new Date('2030-03-04T10:00:00Z');
    const de = smsText('invitation', { ...link, expiresAt }, 'de');
    expect(de).toBe(
      `Ann bittet Sie, "Lease" zu unterschreiben. Link gültig bis 04.03.2030. Privater Link, nicht weiterleiten:\n${url}`,
    );
    expect(smsText('otp', { code: '123456', minutes: 10, senderName: 'Ann', title: 'Lease' }, 'de')).toBe(
      '123456 ist Ihr Code, um "Lease" von Ann zu unterschreiben. Er gilt 10 Minuten. Geben Sie ihn nie weiter.',
    );
    const ar = smsText('next_signer', link, 'ar');
    expect(ar).toContain('حان دورك لتوقيع «Lease»');
    expect(ar.endsWith(`\n${url}`)).toBe(true);
    expect(smsText('otp', { code: '123456', minutes: 2, senderName: 'Ann', title: 'Lease' }, 'ar')).toContain(
      'دقيقتين',
    );
    const done = smsText(
      'request.completed',
      { title: 'Lease', urls: [url], until: expiresAt, test: false },
      'ar',
    );
    expect(done).toContain('وقّع الجميع على «Lease»');
    expect(done).not.toMatch(/[A-Za-z]{4,} (has|signed|copy)/);
  });

  it('issue 47: an approver is asked to approve or reject, a viewer to read, never to sign (invitation, next, resend, reminder)', () => {
    const approver = { ...link, part: 'approver' as const };
    const viewer = { ...link, part: 'viewer' as const };
    for (const kind of ['invitation', 'next_signer', 'resend'] as const) {
      expect(smsText(kind, approver, 'en')).toContain('Ann asks you to approve or reject "Lease".');
      expect(smsText(kind, viewer, 'en')).toContain(
        'Ann asks you to read "Lease" and confirm you have read it.',
      );
    }
    expect(smsText('reminder', approver, 'en')).toMatch(
      /^Reminder: Ann is waiting for your approval of "Lease"\./,
    );
    expect(smsText('reminder', viewer, 'en')).toMatch(/^Reminder: Ann is waiting for you to read "Lease"\./);
    expect(smsText('invitation', approver, 'de')).toContain(
      'Ann bittet Sie, "Lease" zu genehmigen oder abzulehnen.',
    );
    expect(smsText('invitation', viewer, 'fr')).toContain('Ann vous invite à lire "Lease"');
    expect(smsText('invitation', approver, 'ar')).toContain('الموافقة على «Lease»');
    for (const part of [approver, viewer])
      for (const kind of ['invitation', 'reminder'] as const)
        expect(smsText(kind, part, 'en').split('\n')[0]).not.toMatch(/\bsign/);
  });
});
