import { isEmail } from '../email.ts';
import { PHONE_PATTERN } from '../values.ts';
import { roundTo } from './formula.ts';
import {
  type FieldValidation,
  type LocalisedText,
  type LogicField,
  MAX_PATTERN_INPUT,
  type ValidationPreset,
  type ValueIssue,
} from './types.ts';

// Validation beyond the type (issue 46 item 3): the same checks and messages on the page and on the server.

/** An IBAN: country, check digits, up to 30 letters or digits; spaces allowed; ISO 13616 mod-97 check. */
export function isIban(s: string): boolean {
  const v = s.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(v)) return false;
  const moved = v.slice(4) + v.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const code = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of code) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

/** A postcode of any country: 3 to 10 letters and digits, single spaces or hyphens between. */
const POSTCODE_PATTERN = /^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/;

const PRESETS: Record<ValidationPreset, (s: string) => boolean> = {
  email: (s) => isEmail(s.trim()),
  phone: (s) => PHONE_PATTERN.test(s),
  iban: isIban,
  postcode: (s) => s.length >= 3 && s.length <= 10 && POSTCODE_PATTERN.test(s.trim()),
};

const PRESET_ENGLISH: Record<ValidationPreset, string> = {
  email: 'enter an email address',
  phone: 'enter a phone number',
  iban: 'enter a valid IBAN',
  postcode: 'enter a postcode',
};

/** A sender's message in the signer's language: that language, else its base, else English, else any. */
export function localised(text: LocalisedText | undefined, locale: string): string | undefined {
  if (text === undefined || typeof text === 'string') return text;
  const base = locale.split('-')[0]!;
  return text[locale] ?? text[base] ?? text.en ?? Object.values(text)[0];
}

/** Compiles a sender's pattern as the whole value must match it (`u` flag); null when it does not compile. */
export function compilePattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return null;
  }
}

const issue = (
  field: string,
  key: string,
  english: string,
  values: Record<string, string | number> = {},
) => ({
  field,
  key: `error.form_${key}`,
  english: `"${field}": ${english}`,
  values: { field, ...values },
});

function textIssue(f: LogicField, v: FieldValidation, value: string, locale: string): ValueIssue | null {
  const n = f.name;
  if (v.min_length !== undefined && [...value].length < v.min_length)
    return issue(n, 'min_length', `at least ${v.min_length} characters`, { min: v.min_length });
  if (v.max_length !== undefined && [...value].length > v.max_length)
    return issue(n, 'max_length', `at most ${v.max_length} characters`, { max: v.max_length });
  if (v.preset && !PRESETS[v.preset](value)) return issue(n, v.preset, PRESET_ENGLISH[v.preset]);
  if (v.pattern !== undefined) {
    const re = compilePattern(v.pattern);
    // The pattern is only ever run on a bounded input (and was checked for backtracking at save).
    const ok = re !== null && value.length <= MAX_PATTERN_INPUT && re.test(value);
    if (!ok) {
      const message = localised(v.message, locale);
      if (message) return issue(n, 'pattern', message, { message });
      return issue(n, 'pattern_default', 'this is not in the expected form');
    }
  }
  return null;
}

function numberIssue(f: LogicField, v: FieldValidation, value: number): ValueIssue | null {
  const n = f.name;
  if (v.min !== undefined && value < v.min) return issue(n, 'min', `at least ${v.min}`, { min: v.min });
  if (v.max !== undefined && value > v.max) return issue(n, 'max', `at most ${v.max}`, { max: v.max });
  if (v.step !== undefined && v.step > 0) {
    const from = v.min ?? 0;
    const steps = (value - from) / v.step;
    if (Math.abs(steps - roundTo(steps, 0)) > 1e-9)
      return issue(n, 'step', `in steps of ${v.step}`, { step: v.step });
  }
  return null;
}

function dateIssue(f: LogicField, v: FieldValidation, value: string): ValueIssue | null {
  if (v.earliest && value < v.earliest)
    return issue(f.name, 'earliest', `on or after ${v.earliest}`, { date: v.earliest });
  if (v.latest && value > v.latest)
    return issue(f.name, 'latest', `on or before ${v.latest}`, { date: v.latest });
  return null;
}

/**
 * The first problem of a filled field's value with its validation, or null. Values are as stored
 * (text, a number, a `YYYY-MM-DD` date); `locale` chooses the sender's message.
 */
export function validateValue(f: LogicField, value: unknown, locale = 'en'): ValueIssue | null {
  const v = f.validation;
  if (!v || value === null || value === undefined || value === '') return null;
  if ((f.type === 'text' || f.type === 'phone') && typeof value === 'string')
    return textIssue(f, v, value, locale);
  if (f.type === 'number' && typeof value === 'number') return numberIssue(f, v, value);
  if (f.type === 'date' && typeof value === 'string') return dateIssue(f, v, value);
  return null;
}
