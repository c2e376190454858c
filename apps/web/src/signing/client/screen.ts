import { h } from './dom.ts';
import { tr } from './i18n.ts';
import type { StatusView } from './status.ts';

const root = document.getElementById('app') as HTMLElement;
let leave: (() => void) | null = null;

/**
 * Replaces what the page shows (loading, status, code gate, signing). The screen shown before is
 * torn down first (its `onLeave`: timers stopped, late answers ignored) and open dialogs close.
 */
export function showScreen(nodes: Node[], onLeave?: () => void): void {
  leave?.();
  leave = onLeave ?? null;
  for (const d of document.querySelectorAll('dialog')) d.remove();
  root.replaceChildren(...nodes);
}

/** A whole-page message instead of the document: finished, declined, closed or broken links. */
export function showStatus(view: StatusView, retry: () => void): void {
  document.title = view.title;
  const heading = h('h1', { tabindex: -1 }, view.title);
  const icon = view.kind === 'done' ? '✓' : view.kind === 'info' ? 'i' : '!';
  showScreen([
    h(
      'main',
      { id: 'main', class: 'status-page' },
      h(
        'div',
        { class: `card ${view.kind}` },
        h('div', { class: 'icon', 'aria-hidden': 'true' }, icon),
        heading,
        h('p', null, view.body),
        view.detail ? h('p', { class: 'detail' }, view.detail) : null,
        view.retry
          ? h('button', { type: 'button', class: 'btn primary', onclick: retry }, tr('page.try_again'))
          : null,
      ),
    ),
  ]);
  heading.focus();
}

export function showLoading(): void {
  showScreen([
    h(
      'main',
      { id: 'main', class: 'status-page' },
      h('p', { class: 'loading', role: 'status' }, tr('page.loading')),
    ),
  ]);
}

/** Where a screen sends the signer next; main.ts implements it. */
export interface Flow {
  /** opens the link again: after an email code was verified, when the session lapsed, Try again */
  restart(): void;
  /** ends the screen with a whole-page status (signed, declined, or why the link cannot be used) */
  close(view: StatusView): void;
}
