import type * as Engine from './form-engine.ts';
import { pageLocale, tr } from './i18n.ts';
import type { SigningPage } from './signing-state.ts';
import type { OpenResult, SigningField } from './types.ts';

/**
 * Issue 46: the form logic of the signing page, loaded (form-engine.ts, with @esign/domain's
 * evaluator) only when the request's fields have conditions, formulas or validation, so the
 * signing page of every other request stays within its size budget.
 */

let engine: typeof Engine | null = null;

const LOGIC_KEYS = ['show_when', 'required_when', 'formula', 'validation'] as const;

/** Loads the evaluator when `open` needs it; call before showing the signing page. */
export async function loadFormLogic(open: OpenResult): Promise<void> {
  const needed =
    open.form_fields !== undefined || open.fields.some((f) => LOGIC_KEYS.some((k) => f[k] !== undefined));
  if (needed && !engine) engine = await import('./form-engine.ts');
}

const deps: Engine.EngineDeps = { original: (f) => original(f), tr, locale: pageLocale };

export const hasFormLogic = (page: SigningPage): boolean => engine?.hasFormLogic(page) ?? false;
export const applyForm = (page: SigningPage): SigningField[] => engine?.applyForm(page, deps) ?? [];
export const watchInput = (
  field: SigningField,
  els: Parameters<typeof Engine.watchInput>[1],
  parse: (raw: string) => unknown,
): void => engine?.watchInput(field, els, parse, deps);
export const formProblems = (page: SigningPage): Map<string, string> =>
  engine?.formProblems(page, deps) ?? new Map();

interface Original {
  required: boolean;
  prefilled: boolean;
}

const originals = new WeakMap<SigningField, Original>();

/** A field's `required` and `prefilled` as signing.open gave them, before the form changed them. */
function original(f: SigningField): Original {
  let o = originals.get(f);
  if (!o) {
    o = { required: f.required, prefilled: f.prefilled };
    originals.set(f, o);
  }
  return o;
}

/**
 * Whether the signer fills a field in at all: not the sender's, not computed by a formula;
 * whether the form hides it now or not (it may show again).
 */
export function signerFills(f: SigningField): boolean {
  return !original(f).prefilled && f.formula === undefined;
}
