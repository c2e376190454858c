import { formIssues, type LogicField, validateValue } from '@esign/domain';
import type { MessageKey } from '@esign/i18n';
import type { SigningPage } from './signing-state.ts';
import type { SigningField } from './types.ts';

/**
 * Loaded only for a request whose fields have form logic (form.ts). Issue 46 on the signing page:
 * the fields' conditions, formulas and validation, evaluated as the signer fills the form with the same @esign/domain code the server runs at completion. A hidden
 * field's areas disappear and its value is cleared; a formula field shows its computed value,
 * read-only; required marks follow `required_when`; a value its validation refuses is marked with
 * the message the server would give.
 */

/**
 * What the engine takes from the page's bundle, handed over by form.ts rather than imported, so
 * this chunk shares no module with the script (no third chunk for the page to fetch).
 */
export interface EngineDeps {
  original(f: SigningField): { required: boolean; prefilled: boolean };
  tr(key: MessageKey, values: Record<string, string | number>): string;
  locale(): string;
}

/**
 * As the signer types in a field's editor: the message its validation gives (the server's, in the
 * page's language) replaces the hint below the input while the value is refused. `parse` is the
 * page's reading of the text (numbers and dates as the signer writes them).
 */
export function watchInput(
  field: SigningField,
  els: { input: HTMLInputElement | HTMLTextAreaElement; hint: HTMLElement },
  parse: (raw: string) => unknown,
  deps: EngineDeps,
): void {
  if (!field.validation) return;
  const hint = els.hint.textContent ?? '';
  els.hint.setAttribute('aria-live', 'polite');
  els.input.addEventListener('input', () => {
    const issue = validateValue({ ...field, role: '' }, parse(els.input.value), deps.locale());
    els.hint.textContent = issue ? deps.tr(issue.key as MessageKey, issue.values) : hint;
    els.hint.classList.toggle('error', issue !== null);
  });
}

export function hasFormLogic(page: SigningPage): boolean {
  return page.open.form_fields !== undefined || page.fields.some(isLogicField);
}

function isLogicField(f: SigningField): boolean {
  return (
    f.show_when !== undefined ||
    f.required_when !== undefined ||
    f.formula !== undefined ||
    f.validation !== undefined
  );
}

const role = (page: SigningPage) => page.open.signer.role ?? '';

/** The form as the evaluator reads it: this signer's fields, the other roles', every value by name. */
function formOf(page: SigningPage, { original }: EngineDeps) {
  const own: LogicField[] = page.fields.map((f) => ({ ...f, ...original(f), role: role(page) }));
  const fields = [...own, ...((page.open.form_fields ?? []) as LogicField[])];
  const values: Record<string, unknown> = {};
  for (const o of page.open.filled_by_others) values[o.name] = o.value;
  for (const f of page.fields) values[f.name] = page.values.get(f.id) ?? null;
  return { fields, values };
}

/**
 * Re-evaluates the form after a change; returns the fields whose value it changed (cleared
 * because hidden, or computed), which the caller saves and repaints.
 */
export function applyForm(page: SigningPage, deps: EngineDeps): SigningField[] {
  if (!hasFormLogic(page)) return [];
  const { fields, values } = formOf(page, deps);
  const { state } = formIssues(fields, values as never, { role: role(page), locale: deps.locale() });
  const changed: SigningField[] = [];
  for (const f of page.fields) {
    const s = state.fields[f.name];
    if (!s) continue;
    const o = deps.original(f);
    f.required = s.required;
    // Hidden and computed fields are not the signer's to fill: Next field and Finish pass them by.
    f.prefilled = o.prefilled || !s.visible || s.computed !== undefined;
    for (const el of page.overlays.get(f.id) ?? []) el.hidden = !s.visible;
    const next = s.visible ? (s.computed !== undefined ? s.computed : (page.values.get(f.id) ?? null)) : null;
    if (next !== (page.values.get(f.id) ?? null)) {
      page.values.set(f.id, next);
      page.dirty.add(f.id);
      changed.push(f);
    }
  }
  return changed;
}

/** Each of this signer's shown fields whose value the server would refuse, with the message (by field id). */
export function formProblems(page: SigningPage, deps: EngineDeps): Map<string, string> {
  const out = new Map<string, string>();
  if (!hasFormLogic(page)) return out;
  const { fields, values } = formOf(page, deps);
  const { issues } = formIssues(fields, values as never, { role: role(page), locale: deps.locale() });
  for (const issue of issues) {
    const f = page.fields.find((x) => x.name === issue.field);
    if (f && !out.has(f.id)) out.set(f.id, deps.tr(issue.key as MessageKey, issue.values));
  }
  return out;
}
