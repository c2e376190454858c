import { describe, expect, it } from 'vitest';
import { CATALOGUES, LOCALES } from '../src/index.ts';

// Issue 42.6: a signer may be reached by SMS only. Words every signer can read (whatever their
// channel) never say the link or code came by email alone.

const EMAIL = /e-?mail|correo|البريد|الإلكترونية/i;
const SMS = /\bsms|text message|النصية/i;

/** Messages shown to a signer without knowing (or regardless of) the channel that reached them. */
const ANY_CHANNEL = ['status.invalid_link.body', 'status.waiting.body', 'audit.code_verified'] as const;

describe('issue 42.6: wording that does not assume email for SMS signers', () => {
  for (const locale of LOCALES) {
    it(`${locale}: the invalid-link and not-your-turn pages name email only beside SMS; the audit trail's code row names neither`, () => {
      const c = CATALOGUES[locale];
      const wrong = ANY_CHANNEL.filter((key) => EMAIL.test(c[key]) && !SMS.test(c[key]));
      expect(wrong).toEqual([]);
      expect(c['audit.code_verified']).not.toMatch(EMAIL);
    });

    it(`${locale}: an SMS signer whose session ended is asked for the code from the text message`, () => {
      const c = CATALOGUES[locale];
      expect(c['review.session_ended_sms']).toMatch(SMS);
      expect(c['review.session_ended_sms']).not.toMatch(EMAIL);
    });
  }
});
