import { isImageFieldType } from '@esign/domain';
import { h } from './dom.ts';
import { fieldLabel } from './editor-base.ts';
import { tr } from './i18n.ts';
import type { SigningPage } from './signing-state.ts';
import { placeTip } from './tip-place.ts';
import type { FieldValue, SigningField } from './types.ts';
import { describeValue, isFilled, isImageValue, missingRequired } from './values.ts';

/**
 * Redraws a field's areas from its value: filled, required and invalid marks, what it shows, and
 * what a screen reader says about it.
 */
export function paintField(page: SigningPage, field: SigningField): void {
  const value = page.values.get(field.id) ?? null;
  const filled = isFilled(value);
  const invalid = page.invalid.has(field.id);
  const tip = document.getElementById(`err-${field.id}`);
  if (tip) {
    tip.hidden = !invalid;
    const message = page.formMessages.get(field.id);
    tip.textContent = message ?? tr('sign.required_tip');
    tip.classList.toggle('message', message !== undefined);
  }
  const first = page.overlays.get(field.id)?.[0];
  if (tip && first && invalid) placeTip(tip, first);
  for (const el of page.overlays.get(field.id) ?? []) {
    el.classList.toggle('filled', filled);
    el.classList.toggle('required', field.required);
    el.classList.toggle('invalid', invalid);
    el.replaceChildren(fieldContent(field, value));
    if (field.prefilled) {
      const said = tr('sign.prefilled_said', { field: field.name, value: describeValue(field, value) });
      el.append(h('span', { class: 'sr-only' }, said));
      continue;
    }
    if (el.getAttribute('aria-hidden') === 'true') continue;
    labelControl(el, field, value, invalid);
  }
}

function labelControl(el: HTMLElement, field: SigningField, value: FieldValue, invalid: boolean): void {
  if (field.type === 'checkbox') {
    el.setAttribute('role', 'checkbox');
    el.setAttribute('aria-checked', String(value === true));
    el.setAttribute(
      'aria-label',
      field.required ? tr('sign.field_required', { field: field.name }) : field.name,
    );
  } else {
    el.setAttribute('aria-label', `${fieldLabel(field)}: ${describeValue(field, value)}`);
  }
  if (invalid) {
    el.setAttribute('aria-invalid', 'true');
    el.setAttribute('aria-describedby', `err-${field.id}`);
  } else {
    el.removeAttribute('aria-invalid');
    el.removeAttribute('aria-describedby');
  }
}

/** What an area shows: the name as a placeholder, the picture, or the value in short words. */
function fieldContent(field: SigningField, value: FieldValue): Node {
  if (!isFilled(value)) {
    return h(
      'span',
      { class: 'ph', 'aria-hidden': 'true' },
      field.type === 'checkbox' ? '' : field.name,
      field.required ? h('b', null, '*') : null,
    );
  }
  if (isImageFieldType(field.type) && isImageValue(value)) return h('img', { src: value, alt: '' });
  const text =
    field.type === 'checkbox'
      ? '✓'
      : field.type === 'file'
        ? `📎 ${(value as { name: string }).name}`
        : describeValue(field, value);
  return h('span', { class: field.type === 'cells' ? 'fv cells' : 'fv', 'aria-hidden': 'true' }, text);
}

/** "2 of 4 required done"; Next field hides, and Finish lights up, when none is left. */
export function updateProgress(page: SigningPage): void {
  const { ui } = page;
  const required = page.fields.filter((f) => f.required && !f.prefilled).length;
  const left = missingRequired(page.fields, page.values).length;
  ui.progress.textContent = required ? tr('sign.progress', { done: required - left, total: required }) : '';
  const wasFocused = document.activeElement === ui.next;
  ui.next.hidden = left === 0;
  if (wasFocused && left === 0) ui.finish.focus();
  ui.finish.classList.toggle('ready', left === 0);
}
