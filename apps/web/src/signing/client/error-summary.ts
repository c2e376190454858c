import { h } from './dom.ts';
import { tr } from './i18n.ts';
import type { SigningPage, SigningUi } from './signing-state.ts';
import { typeLabel } from './values.ts';

export function hideSummary(ui: SigningUi): void {
  ui.summary.hidden = true;
  ui.summary.replaceChildren();
  ui.summary.removeAttribute('role');
}

/** The error summary above the document: one link per problem, each moving focus to the field. */
export function showSummary(page: SigningPage, focus: boolean): void {
  const { summary } = page.ui;
  const missing = page.fields.filter((f) => page.invalid.has(f.id));
  const jumpTo = (id: string) => (e: Event) => {
    e.preventDefault();
    const el = page.overlays.get(id)?.[0];
    el?.scrollIntoView({ block: 'center' });
    el?.focus({ preventScroll: true });
  };
  summary.replaceChildren(
    h('h2', null, tr('problem.missing', { count: missing.length })),
    h(
      'ul',
      null,
      missing.map((f) =>
        h(
          'li',
          null,
          h(
            'a',
            { href: `#f-${f.id}`, onclick: jumpTo(f.id) },
            tr('field.label', { name: f.name, type: typeLabel(f.type) }),
          ),
        ),
      ),
    ),
  );
  summary.hidden = false;
  if (focus) {
    summary.setAttribute('role', 'alert');
    summary.scrollIntoView({ block: 'start' });
    summary.focus({ preventScroll: true });
  }
}

/** A problem the signer must know about (a save or the signing failed), in the summary's place. */
export function showProblem(ui: SigningUi, text: string): void {
  ui.summary.replaceChildren(h('h2', null, tr('problem.title')), h('p', null, text));
  ui.summary.hidden = false;
  ui.summary.setAttribute('role', 'alert');
  ui.summary.scrollIntoView({ block: 'start' });
  ui.summary.focus({ preventScroll: true });
}
