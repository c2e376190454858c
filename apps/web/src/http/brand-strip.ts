import type { SigningBrandOutput } from '@esign/core/schemas/brands';
import type { z } from 'zod';

// A brand above a server-rendered public page (issue 44 item 2: the CC page, the public signing
// link's pages): its logo (the cleaned PNG or JPEG as a data: URI, allowed by those pages' CSP
// `img-src data:`), its name as text, and its primary colour on buttons and links. Every value is
// escaped; colours are `#rrggbb` checked when saved and checked again here. No "Powered by".

export type PageBrand = z.infer<typeof SigningBrandOutput>;

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const HEX = /^#[0-9a-f]{6}$/i;
const DATA_IMAGE = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/;

/** The strip above the page's heading, or nothing without a brand. */
export function brandStrip(brand: PageBrand | null | undefined): string {
  if (!brand) return '';
  const color = HEX.test(brand.primary_color) ? brand.primary_color : null;
  const accent = HEX.test(brand.accent_color) ? brand.accent_color : null;
  const logo =
    brand.logo && DATA_IMAGE.test(brand.logo) ? `<img class="brand-logo" src="${brand.logo}" alt="">` : '';
  const style = color
    ? `<style>.brand-strip{border-bottom:3px solid ${color}}button,.button{background:${color};border-color:${color}}${accent ? `a{color:${accent}}` : ''}.brand-logo{max-height:40px;max-width:200px;vertical-align:middle;margin-inline-end:10px}</style>`
    : '';
  return `${style}<header class="brand-strip" id="brand" data-brand="header"><p>${logo}<strong class="brand-name" dir="auto">${esc(brand.name)}</strong></p></header>`;
}
