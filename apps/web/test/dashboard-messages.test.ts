import { translator } from '@esign/i18n/core';
import { parseMessage as parse, pseudoLocalize } from '@esign/i18n/precompile';
import { describe, expect, it } from 'vitest';
import { messageParts, messages } from '../dashboard/src/messages/index.ts';

describe("issue 32: the dashboard's words are ready to translate", () => {
  it('every dashboard message is a non-empty ICU message of the one catalogue (dashboard/src/messages/)', () => {
    const problems: string[] = [];
    for (const [key, message] of Object.entries(messages)) {
      if (!message.trim()) problems.push(`${key}: empty`);
      try {
        parse(message);
      } catch (e) {
        problems.push(`${key}: ${(e as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.keys(messages).length).toBeGreaterThan(30);
  });

  it('no key is defined in two parts of the catalogue (one key, one message)', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [part, entries] of Object.entries(messageParts))
      for (const key of Object.keys(entries)) {
        const first = seen.get(key);
        if (first) twice.push(`${key}: ${first} and ${part}`);
        seen.set(key, part);
      }
    expect(twice).toEqual([]);
  });

  it('the pseudo-language en-XA keeps arguments, plurals and markup, and marks every word', () => {
    const message = '{count, plural, one {# field} other {# fields}} for <b>{name}</b>';
    const { rich } = translator({ m: pseudoLocalize(message) }, 'en');
    const out = rich<string>('m', { count: 2, name: 'Ada', b: (c) => `[${c.join('')}]` });
    expect([out].flat().join('')).toBe('⟦2 fíéldš fór [Ada]⟧');
    for (const english of Object.values(messages)) expect(pseudoLocalize(english)).not.toEqual([]);
  });
});

describe('issue 42.6: dashboard words about a signer do not assume email', () => {
  it("a signer's status never says their link was (not) emailed: phone-only signers get it by SMS", () => {
    const emailed = Object.entries(messages).filter(([, m]) => /link not emailed/i.test(m));
    expect(emailed).toEqual([]);
    expect(messages['signer.ready']).toBe('Ready (link not sent yet)');
  });
});
