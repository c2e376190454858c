import { announce, prefersReducedMotion } from './dom.ts';
import { editField } from './editor.ts';
import { notifyHost } from './embed.ts';
import { hideSummary, showSummary } from './error-summary.ts';
import { paintField, updateProgress } from './field-display.ts';
import { applyForm, formProblems, hasFormLogic } from './form.ts';
import { areaAspect } from './geometry.ts';
import { tr } from './i18n.ts';
import { scheduleSave } from './saving.ts';
import { pageKey, type SigningPage } from './signing-state.ts';
import type { FieldValue, SigningField } from './types.ts';
import { isFilled, isImageValue, missingRequired, nextField } from './values.ts';
import { bringToField } from './zoom.ts';

export type Via = 'pointer' | 'keyboard';

/** A new value for a field: redrawn, progress and error summary updated, autosave scheduled. */
function setValue(page: SigningPage, field: SigningField, value: FieldValue): void {
  page.values.set(field.id, value);
  page.dirty.add(field.id);
  if (isFilled(value)) page.invalid.delete(field.id);
  if (hasFormLogic(page)) {
    // Issue 46: other fields shown, hidden, required or computed from this answer; this value checked.
    applyForm(page);
    page.formMessages = formProblems(page);
    for (const f of page.fields) if (f.prefilled) page.invalid.delete(f.id);
    if (isFilled(value) && page.formMessages.has(field.id)) page.invalid.add(field.id);
    for (const f of page.fields) if (f.id !== field.id) paintField(page, f);
  }
  paintField(page, field);
  updateProgress(page);
  if (!page.invalid.size) hideSummary(page.ui);
  else if (!page.ui.summary.hidden) showSummary(page, false);
  scheduleSave(page);
  if (isFilled(value)) notifyFieldCompleted(page, field);
}

/** Tells an embedding page (docs/embed.md) that a field has a value, and how many have one now. */
function notifyFieldCompleted(page: SigningPage, field: SigningField): void {
  notifyHost('field-completed', {
    field: { id: field.id, name: field.name, type: field.type, required: field.required },
    completed: page.fields.filter((f) => isFilled(page.values.get(f.id))).length,
    total: page.fields.length,
  });
}

/** A signature (or initials) the signer already made on another field, to offer again. */
function reusableImage(page: SigningPage, field: SigningField): string | null {
  if (field.type !== 'signature' && field.type !== 'initials') return null;
  return (
    page.fields
      .filter((f) => f.type === field.type && f.id !== field.id)
      .map((f) => page.values.get(f.id))
      .find(isImageValue) ?? null
  );
}

/**
 * The signer chose a field: a checkbox toggles, anything else opens its editor. `guided` (Next
 * field) moves on to the next required field after a save.
 */
export async function activate(
  page: SigningPage,
  field: SigningField,
  opener: HTMLElement,
  via: Via,
  guided = false,
): Promise<void> {
  page.lastFieldId = field.id;
  if (field.prefilled) return;
  if (field.type === 'checkbox') {
    const checked = page.values.get(field.id) !== true;
    setValue(page, field, checked);
    announce(tr(checked ? 'fill.checkbox_checked' : 'fill.checkbox_unchecked', { field: field.name }));
    return;
  }
  const area = field.areas[0];
  const pageInfo = area ? page.pages.get(pageKey(area.document, area.page)) : undefined;
  const moreAfter = guided && nextField(page.fields, page.values, field.id)?.id !== field.id;
  const edited = await editField({
    field,
    value: page.values.get(field.id) ?? null,
    via,
    signerName: page.open.signer.name ?? '',
    aspect: area && pageInfo ? areaAspect(area, pageInfo) : 3,
    heightPt: area && pageInfo ? area.h * pageInfo.height : 20,
    reuse: reusableImage(page, field),
    submitLabel:
      moreAfter && missingRequired(page.fields, page.values).length > 1
        ? tr('fill.save_next')
        : tr('fill.save'),
  });
  if (page.done) return;
  opener.focus({ preventScroll: true });
  if (!edited) return;
  setValue(page, field, edited.value);
  const left = missingRequired(page.fields, page.values).length;
  announce(
    `${tr(isFilled(edited.value) ? 'fill.field_saved' : 'fill.field_cleared', { field: field.name })} ${
      left ? tr('fill.left', { count: left }) : tr('fill.all_done')
    }`,
  );
  if (guided && left) await goNext(page, via);
}

/** Next field: the next field still empty (required or optional, values.ts nextField), scrolled to and opened. */
export async function goNext(page: SigningPage, via: Via): Promise<void> {
  const field = nextField(page.fields, page.values, page.lastFieldId);
  if (!field) {
    announce(tr('fill.all_done_finish'));
    page.ui.finish.focus();
    return;
  }
  const el = page.overlays.get(field.id)?.[0];
  if (!el) return;
  const main = document.getElementById('main');
  if (main) bringToField(main, el, page.ui.fit, !prefersReducedMotion());
  el.focus({ preventScroll: true });
  markGuided(el);
  page.lastFieldId = field.id;
  if (field.type === 'checkbox') {
    announce(tr('fill.checkbox_hint', { field: field.name }));
    return;
  }
  await activate(page, field, el, via, true);
}

/** A visible focus ring on the field Next field moved to, even after a tap (until it loses focus). */
function markGuided(el: HTMLElement): void {
  el.classList.add('guided');
  el.addEventListener('blur', () => el.classList.remove('guided'), { once: true });
}
