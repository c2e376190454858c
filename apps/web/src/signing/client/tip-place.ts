/**
 * Where a field's "Required" tip goes (issue 42.7): below the field by default, but never over
 * another field (its name is its label) or another tip. On a dense form, where the next line's
 * field starts right under this one, the tip goes above the field, else beside it (after it, then
 * before it), whichever spot is free and on the page. Positions are percentages of the page, so a
 * placed tip stays by its field at any zoom.
 */

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const GAP = 2;

const boxOf = (el: Element): Box => {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
};

const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The spots a tip of size w × h may take around `field`, in order of preference. */
function candidates(field: Box, w: number, h: number): Box[] {
  const at = (left: number, top: number): Box => ({ left, top, right: left + w, bottom: top + h });
  const middle = (field.top + field.bottom - h) / 2;
  return [
    at(field.left, field.bottom + GAP),
    at(field.left, field.top - GAP - h),
    at(field.right + GAP, middle),
    at(field.left - GAP - w, middle),
  ];
}

/** Places the visible `tip` of the field `fieldEl` on its page (the positioned `.page`). */
export function placeTip(tip: HTMLElement, fieldEl: HTMLElement): void {
  const pageEl = fieldEl.closest<HTMLElement>('.page');
  if (!pageEl || tip.hidden) return;
  const page = boxOf(pageEl);
  if (page.right - page.left <= 0) return;
  const field = boxOf(fieldEl);
  const size = boxOf(tip);
  const taken = [...pageEl.querySelectorAll<HTMLElement>('.field, .field-tip')]
    .filter((el) => el !== fieldEl && el !== tip && !el.hidden)
    .map(boxOf);
  const inPage = (b: Box) =>
    b.left >= page.left && b.right <= page.right && b.top >= page.top && b.bottom <= page.bottom;
  const spots = candidates(field, size.right - size.left, size.bottom - size.top);
  const spot = spots.find((b) => inPage(b) && !taken.some((t) => overlaps(b, t))) ?? spots[0]!;
  const width = page.right - page.left;
  const height = page.bottom - page.top;
  tip.style.left = `${(((spot.left - page.left) / width) * 100).toFixed(3)}%`;
  tip.style.top = `${(((spot.top - page.top) / height) * 100).toFixed(3)}%`;
  tip.style.marginTop = '0';
}
