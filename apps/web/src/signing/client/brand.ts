import { h } from './dom.ts';
import type { OpenResult } from './types.ts';

// Issue 44 item 2 (docs/branding.md): the request's brand on every screen of the signing page
// (signing, code, finished, expired): a header with its logo and name above the app, and its
// primary colour through the page's CSS variables (buttons, focus rings). Colours were checked
// for WCAG AA when the brand was saved; the name is text (textContent), the logo a cleaned PNG or
// JPEG data: URI (never SVG).

const HEX = /^#[0-9a-f]{6}$/;

export function applyBrand(open: Pick<OpenResult, 'brand'>): void {
  document.getElementById('brand')?.remove();
  const brand = open.brand;
  if (!brand) return;
  const root = document.documentElement.style;
  if (HEX.test(brand.primary_color)) {
    root.setProperty('--accent', brand.primary_color);
    root.setProperty('--focus', brand.primary_color);
  }
  // Embedded with <esign-form brand-header="off">: the host page shows its own header.
  if (window.parent !== window && /(?:^|[#&])brand=off(?:&|$)/.test(location.hash.slice(1))) return;
  const logo = brand.logo?.startsWith('data:image/')
    ? h('img', { src: brand.logo, alt: '', class: 'brand-logo' })
    : null;
  const header = h(
    'header',
    { id: 'brand', class: 'brand' },
    logo,
    h('span', { class: 'brand-name', dir: 'auto' }, brand.name),
  );
  document.body.insertBefore(header, document.getElementById('app'));
}
