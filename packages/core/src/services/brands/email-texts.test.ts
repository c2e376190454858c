import { describe, expect, it } from 'vitest';
import { CoreError } from '../../errors.ts';
import { checkEmailTexts, renderText } from './email-texts.ts';

// Issue 44 item 3: a brand's own words, refused when saved if they could not be sent whole.

const refusal = (texts: Parameters<typeof checkEmailTexts>[0]) => {
  try {
    checkEmailTexts(texts);
    return null;
  } catch (err) {
    if (!(err instanceof CoreError)) throw err;
    return `${err.code}: ${err.message}`;
  }
};

const body =
  'Bonjour {{signer.name}},\n\n{{sender.name}} vous invite à signer « {{request.title}} » : {{link}}';

describe('checked when saved (422 naming the problem)', () => {
  it('a French invitation using documented variables is accepted', () =>
    expect(refusal({ invitation: { fr: { subject: 'Signez {{request.title}}', body } } })).toBeNull());

  it('an unknown variable is refused, named with where it is', () =>
    expect(refusal({ invitation: { fr: { subject: 'Signez {{document.name}}', body } } })).toMatch(
      /^invalid_parameter: email_texts\.invitation\.fr\.subject: unknown variable \{\{document\.name\}\}/,
    ));

  it('an unknown variable inside a section is refused too', () =>
    expect(
      refusal({
        reminder: { de: { subject: 'x', body: '{{#signer.name}}{{signer.phone}}{{/signer.name}} {{link}}' } },
      }),
    ).toMatch(/email_texts\.reminder\.de\.body: unknown variable \{\{signer\.phone\}\}/));

  it('a body without the required {{link}} is refused', () =>
    expect(refusal({ invitation: { en: { subject: 'Sign', body: 'Hello {{signer.name}}' } } })).toBe(
      'invalid_parameter: email_texts.invitation.en.body: the variable {{link}} is required',
    ));

  it('partials and delimiter changes are refused (logic-less, nothing loaded)', () => {
    expect(refusal({ invitation: { en: { subject: 'x', body: '{{> footer}} {{link}}' } } })).toMatch(
      /partials/,
    );
    expect(refusal({ invitation: { en: { subject: 'x', body: '{{=<% %>=}} <% link %>' } } })).toMatch(
      /delimiter/,
    );
  });

  it('an unclosed section is refused with the parser’s reason', () =>
    expect(refusal({ invitation: { en: { subject: 'x', body: '{{#signer.name}} {{link}}' } } })).toMatch(
      /^invalid_parameter: email_texts\.invitation\.en\.body: Unclosed section/,
    ));
});

describe('rendering', () => {
  it('fills the values as plain text (HTML is escaped once, by the layout)', () => {
    const values = {
      'signer.name': 'Élodie <b>',
      'signer.email': 'e@example.com',
      'request.title': 'Contrat & annexes',
      'sender.name': 'Agence',
      link: 'https://sign.example/s/abc',
      expires_at: '',
      'brand.name': 'Agence',
      'support.email': '',
      'support.url': '',
    };
    expect(renderText(body, values)).toBe(
      'Bonjour Élodie <b>,\n\nAgence vous invite à signer « Contrat & annexes » : https://sign.example/s/abc',
    );
  });
});
