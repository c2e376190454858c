export type Child = Node | string | number | null | undefined | false;
type Props = Record<string, unknown>;

/**
 * document.createElement with props: `on*` functions become listeners, `class` the class name,
 * `aria-*`, `data-*`, `role` and `for` attributes, anything else a property (value, type, hidden).
 * Never writes a `style` attribute, so the page runs under a CSP without 'unsafe-inline'.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') {
        el.addEventListener(k.slice(2).toLowerCase(), v as EventListener);
      } else if (k === 'class') el.className = String(v);
      else if (k.includes('-') || k === 'role' || k === 'for' || k === 'tabindex') {
        el.setAttribute(k, v === true ? '' : String(v));
      } else (el as unknown as Record<string, unknown>)[k] = v;
    }
  }
  append(el, children);
  return el;
}

function append(el: Node, children: (Child | Child[])[]): void {
  for (const c of children) {
    if (Array.isArray(c)) append(el, c);
    else if (c !== null && c !== undefined && c !== false) {
      el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    }
  }
}

let uid = 0;
/** A page-unique id for aria references. */
export const nextId = (prefix: string) => `${prefix}-${++uid}`;

/** Says something to screen readers through the shell's polite live region. */
export function announce(text: string): void {
  const live = document.getElementById('live');
  if (!live) return;
  // Clearing first makes repeated identical messages be read again.
  live.textContent = '';
  window.setTimeout(() => {
    live.textContent = text;
  }, 50);
}

export const prefersReducedMotion = () =>
  window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/**
 * Starts work that an event handler or timer cannot await. The work shows its own errors where it
 * has a place for them (the save status, the problem banner); anything it still throws is reported
 * as an uncaught error is (`reportError`), and the page goes on.
 */
export function background(work: Promise<unknown>): void {
  work.catch((err: unknown) => reportError(err));
}
