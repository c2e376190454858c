import { LOCALES } from '@esign/i18n';
import Mustache from 'mustache';
import {
  type BrandEmailKind,
  EMAIL_KINDS,
  EMAIL_VARIABLES,
  type EmailVariable,
} from '../../contracts/brand-email.ts';
import { CoreError } from '../../errors.ts';

// A brand's own email words (issue 44 item 3; docs/branding.md, "Your own words"): per email kind
// and per signer language, a subject and a body written as mustache templates (logic-less) over
// a documented list of variables. Checked when saved: a variable outside the list, a required one
// missing, a partial or a delimiter change is refused (422 naming it), so nothing is sent broken.
// Rendered as plain text (mustache's HTML escaping off); the email layout escapes the result once
// for the HTML part.

/** What a body must contain: without the link a signer could not sign. */
const REQUIRED_IN_BODY: Record<BrandEmailKind, EmailVariable[]> = {
  invitation: ['link'],
  reminder: ['link'],
  next_signer: ['link'],
};

type Token = [string, string, number, number, Token[]?, ...unknown[]];

function variablesOf(tokens: Token[], where: string, out: Set<string>): Set<string> {
  for (const token of tokens) {
    const [type, value] = token;
    if (type === 'text' || type === '!') continue;
    if (type === '>' || type === '=')
      throw new CoreError(
        'invalid_parameter',
        `${where}: ${type === '>' ? 'partials' : 'delimiter changes'} are not allowed`,
      );
    if (!(value in EMAIL_VARIABLES))
      throw new CoreError(
        'invalid_parameter',
        `${where}: unknown variable {{${value}}}; the variables are ${Object.keys(EMAIL_VARIABLES)
          .map((v) => `{{${v}}}`)
          .join(', ')}`,
      );
    out.add(value);
    if (token[4]) variablesOf(token[4], where, out);
  }
  return out;
}

function parse(template: string, where: string): Token[] {
  try {
    return Mustache.parse(template) as unknown as Token[];
  } catch (err) {
    throw new CoreError('invalid_parameter', `${where}: ${(err as Error).message}`);
  }
}

export type BrandEmailTexts = Partial<
  Record<BrandEmailKind, Record<string, { subject: string; body: string }>>
>;

/** Checks every text of a brand (kinds, languages, variables); throws 422 naming the first problem. */
export function checkEmailTexts(texts: BrandEmailTexts): void {
  for (const [kind, byLocale] of Object.entries(texts)) {
    if (!(EMAIL_KINDS as readonly string[]).includes(kind))
      throw new CoreError(
        'invalid_parameter',
        `email_texts.${kind}: unknown email kind; the kinds are ${EMAIL_KINDS.join(', ')}`,
      );
    for (const [locale, text] of Object.entries(byLocale ?? {})) {
      const at = `email_texts.${kind}.${locale}`;
      if (!(LOCALES as readonly string[]).includes(locale))
        throw new CoreError(
          'invalid_parameter',
          `${at}: unknown language; the languages are ${LOCALES.join(', ')}`,
        );
      variablesOf(parse(text.subject, `${at}.subject`), `${at}.subject`, new Set());
      const used = variablesOf(parse(text.body, `${at}.body`), `${at}.body`, new Set());
      for (const needed of REQUIRED_IN_BODY[kind as BrandEmailKind])
        if (!used.has(needed))
          throw new CoreError('invalid_parameter', `${at}.body: the variable {{${needed}}} is required`);
    }
  }
}

/** The values of one email's variables. */
export type EmailValues = Record<EmailVariable, string>;

function view(values: EmailValues) {
  return {
    signer: { name: values['signer.name'], email: values['signer.email'] },
    request: { title: values['request.title'] },
    sender: { name: values['sender.name'] },
    brand: { name: values['brand.name'] },
    support: { email: values['support.email'], url: values['support.url'] },
    link: values.link,
    expires_at: values.expires_at,
  };
}

/** A checked template filled in, as plain text (no HTML escaping: the layout escapes for HTML). */
export function renderText(template: string, values: EmailValues): string {
  return Mustache.render(template, view(values), {}, { escape: (s: unknown) => String(s) });
}
