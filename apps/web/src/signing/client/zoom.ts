import { h } from './dom.ts';
import { tr } from './i18n.ts';

/**
 * Readable zoom on phones: moving to a field (Next field, or tapping it) enlarges the pages until
 * the field is at least READABLE_PX tall on screen (at most MAX_ZOOM times the fitted width), and
 * scrolls it to the middle; "Fit page" goes back. Pages and fields are sized in percentages and
 * container units, so everything scales together; pinch zoom keeps working as well.
 */
const READABLE_PX = 32;
const MAX_ZOOM = 2.5;
const PHONE = '(max-width: 600px)';

function zoomOfDocs(main: HTMLElement): number {
  return Number(main.style.getPropertyValue('--zoom')) || 1;
}

function setZoom(main: HTMLElement, zoom: number, fit: HTMLButtonElement): void {
  main.style.setProperty('--zoom', String(zoom));
  main.classList.toggle('zoomed', zoom > 1);
  fit.hidden = zoom <= 1;
}

/** The zoom that makes `el` readable on a phone, or 1 on wider screens. */
function readableZoom(main: HTMLElement, el: HTMLElement): number {
  if (!window.matchMedia(PHONE).matches) return 1;
  const fitted = el.getBoundingClientRect().height / zoomOfDocs(main);
  if (!(fitted > 0)) return 1;
  return Math.min(MAX_ZOOM, Math.max(1, READABLE_PX / fitted));
}

/** Zooms (on a phone) so the field is readable, and brings it to the middle of the screen. */
export function bringToField(main: HTMLElement, el: HTMLElement, fit: HTMLButtonElement, smooth: boolean) {
  const zoom = readableZoom(main, el);
  if (zoom > zoomOfDocs(main) + 0.05) setZoom(main, zoom, fit);
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: smooth ? 'smooth' : 'auto' });
}

export function fitButton(main: () => HTMLElement | null): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'btn ghost fit', hidden: true }, tr('sign.fit'));
  button.addEventListener('click', () => {
    const m = main();
    if (m) setZoom(m, 1, button);
  });
  return button;
}
