import { background, h } from './dom.ts';
import { activate } from './field-actions.ts';
import { signerFills } from './form.ts';
import { areaToPercent, compareAreas } from './geometry.ts';
import { tr } from './i18n.ts';
import { othersOnPage } from './others-view.ts';
import { documentPages, type SigningPage } from './signing-state.ts';
import { type TapRoom, tapRoomStyle, tapRooms } from './tap-areas.ts';
import type { Area, DocumentInfo, PageInfo, SigningField } from './types.ts';

/** One area of a field on a page; `index` 0 is the field's first area (its tab stop). */
interface Placed {
  field: SigningField;
  area: Area;
  index: number;
}

/** A document: its pages as images with the signer's fields drawn over them. */
export function renderDocument(page: SigningPage, doc: DocumentInfo): HTMLElement {
  const placed = new Map<number, Placed[]>();
  for (const field of page.fields) {
    field.areas.forEach((area, index) => {
      if (area.document !== doc.index) return;
      const list = placed.get(area.page) ?? [];
      list.push({ field, area, index });
      placed.set(area.page, list);
    });
  }
  const headingId = `doc-${doc.index}`;
  return h(
    'section',
    { class: 'doc', 'aria-labelledby': headingId },
    h('h2', { id: headingId, class: page.open.documents.length > 1 ? 'doc-name' : 'sr-only' }, doc.name),
    documentPages(doc).map((p, i) => {
      const onPage = (placed.get(p.number) ?? []).sort((a, b) => compareAreas(a.area, b.area));
      return renderPage(page, doc, p, i, onPage);
    }),
  );
}

function renderPage(
  page: SigningPage,
  doc: DocumentInfo,
  info: PageInfo,
  i: number,
  placed: Placed[],
): HTMLElement {
  const label = tr('sign.page_label', { name: doc.name, page: info.number, pages: doc.page_count });
  const img = h('img', {
    src: doc.page_image_url.replace('{page}', String(info.number)),
    alt: label,
    loading: i < 2 ? 'eager' : 'lazy',
    decoding: 'async',
    draggable: false,
  });
  const el = h('div', { class: 'page', role: 'group', 'aria-label': label }, img);
  el.style.aspectRatio = `${info.width} / ${info.height}`;
  img.addEventListener('error', () => {
    el.classList.add('broken');
    el.append(h('p', { class: 'page-error' }, tr('sign.page_error')));
  });
  el.append(...othersOnPage(page.open, doc.index, info.number));
  const rooms = pageTapRooms(page, doc, info, placed);
  placed.forEach((p, k) => {
    el.append(...renderOverlay(page, p, rooms[k]!));
  });
  return el;
}

/** Each placed field's tap room on this page, given every field drawn there (tap-areas.ts). */
function pageTapRooms(page: SigningPage, doc: DocumentInfo, info: PageInfo, placed: Placed[]): TapRoom[] {
  const others = page.open.filled_by_others.flatMap((item) =>
    item.areas.filter((a) => a.document === doc.index && a.page === info.number),
  );
  const rects = [...placed.map((p) => p.area), ...others].map((a) => ({
    left: a.x * info.width,
    top: a.y * info.height,
    right: (a.x + a.w) * info.width,
    bottom: (a.y + a.h) * info.height,
  }));
  return tapRooms(rects, placed.length);
}

/**
 * The element over one area: a button for a field the signer fills (further areas of the field
 * show the same value but are no tab stop), a plain box for a value the sender prefilled.
 */
function renderOverlay(page: SigningPage, { field, area, index }: Placed, room: TapRoom): HTMLElement[] {
  const box = areaToPercent(area);
  const first = index === 0;
  const el = !signerFills(field)
    ? h('div', { class: 'field prefilled' })
    : h('button', {
        type: 'button',
        class: 'field',
        id: first ? `f-${field.id}` : null,
        'data-field': field.id,
        tabindex: first ? null : -1,
        'aria-hidden': first ? null : 'true',
        onclick: (e: MouseEvent) =>
          background(
            activate(page, field, e.currentTarget as HTMLElement, e.detail === 0 ? 'keyboard' : 'pointer'),
          ),
      });
  el.classList.add(`t-${field.type}`);
  Object.assign(el.style, box);
  for (const [name, value] of Object.entries(tapRoomStyle(room))) el.style.setProperty(name, value);
  page.overlays.get(field.id)?.push(el);
  const out: HTMLElement[] = [el];
  if (first && signerFills(field)) {
    const tip = h(
      'span',
      { id: `err-${field.id}`, class: 'field-tip', hidden: true },
      tr('sign.required_tip'),
    );
    tip.style.left = box.left;
    tip.style.top = `calc(${box.top} + ${box.height})`;
    out.push(tip);
  }
  return out;
}
