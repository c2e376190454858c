/**
 * How far a field's enlarged tap area (`button.field::after`, at least 32 px) may reach past the
 * field on each side without covering another field (issue 33 item 1). On a phone, text tags on
 * consecutive lines make fields a few pixels tall and apart; a centred 32 px target of the later
 * field covered the earlier one, so tapping one opened the other.
 *
 * Between two fields the tap areas meet halfway, along the axis that separates them more (so a tap
 * goes to the nearer field, and the two targets never overlap); fields that overlap each other get
 * no enlarged target at all. The result is a fraction of the field's own width (left, right) or
 * height (top, bottom), which the CSS turns into percentages of the button: the caps scale with
 * the page at any zoom.
 */

export interface Rect {
  /** Any unit, the same on both axes (points of the displayed page). */
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Fractions of the field's own width (left, right) and height (top, bottom); Infinity: no cap. */
export interface TapRoom {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Caps `room` (in the rect's unit) so `a`'s tap area stops halfway to `b`. */
function capBy(a: Rect, b: Rect, room: TapRoom): void {
  const gapRight = b.left - a.right;
  const gapLeft = a.left - b.right;
  const gapBelow = b.top - a.bottom;
  const gapAbove = a.top - b.bottom;
  const dx = Math.max(gapRight, gapLeft);
  const dy = Math.max(gapBelow, gapAbove);
  if (dx < 0 && dy < 0) {
    room.left = room.right = room.top = room.bottom = 0;
    return;
  }
  if (dx >= dy) {
    if (gapRight >= gapLeft) room.right = Math.min(room.right, gapRight / 2);
    else room.left = Math.min(room.left, gapLeft / 2);
  } else if (gapBelow >= gapAbove) room.bottom = Math.min(room.bottom, gapBelow / 2);
  else room.top = Math.min(room.top, gapAbove / 2);
}

/**
 * For each of the first `count` rects (the fields with a tap area), the room its tap area has on
 * each side, given every rect on the page (those fields, then any other field drawn there).
 */
export function tapRooms(rects: readonly Rect[], count: number): TapRoom[] {
  const out: TapRoom[] = [];
  for (let i = 0; i < count; i++) {
    const a = rects[i]!;
    const room: TapRoom = { left: Infinity, right: Infinity, top: Infinity, bottom: Infinity };
    rects.forEach((b, j) => {
      if (j !== i) capBy(a, b, room);
    });
    const w = a.right - a.left;
    const h = a.bottom - a.top;
    out.push({
      left: w > 0 ? room.left / w : 0,
      right: w > 0 ? room.right / w : 0,
      top: h > 0 ? room.top / h : 0,
      bottom: h > 0 ? room.bottom / h : 0,
    });
  }
  return out;
}

/**
 * The CSS custom properties the tap area reads; none for no cap. `::after` is placed from the
 * button's padding edge and its percentages are of the padding box, which is the field less its
 * border (--field-border each side): a reach of `r` times the field's size from its outer edge is
 * `r` of the padding box plus (1 + 2r) borders.
 */
export function tapRoomStyle(room: TapRoom): Record<string, string> {
  const style: Record<string, string> = {};
  const set = (name: string, v: number) => {
    if (Number.isFinite(v))
      style[name] = `calc(${(v * 100).toFixed(3)}% + ${(1 + 2 * v).toFixed(3)} * var(--field-border, 0px))`;
  };
  set('--tap-left', room.left);
  set('--tap-right', room.right);
  set('--tap-top', room.top);
  set('--tap-bottom', room.bottom);
  return style;
}
