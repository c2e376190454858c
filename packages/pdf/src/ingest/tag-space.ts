/**
 * The space a tag-made field may take (issue 33 item 2): a field grows from its tag's own box
 * (top-left corner fixed) towards the size it wants, but never over another field or over text
 * that is not its tag (the next line's text, the words after it on its line).
 *
 * Rectangles are in displayed page points, origin top-left, y down: [left, top, right, bottom].
 */

export type Rect = [number, number, number, number];

/** Free space kept between a grown field and what it stops at (points). */
const GAP_X = 2;
const GAP_Y = 1;

/** What one field may grow to. */
export interface GrowthSpec {
  /** The tag's own box: the field never gets smaller than it. */
  own: Rect;
  /** The box the field would take with nothing in the way (same top-left corner as `own`). */
  want: Rect;
  /** Sides the tag set explicitly (`width`/`height`): kept as written. */
  fixedRight: boolean;
  fixedBottom: boolean;
  /**
   * The lowest bottom text may cut a picture field back to (issue 42.7: TAG_MIN_HEIGHTS below the
   * tag's top): a one-line tag over a line of text still gets a box to sign in. Fields and later
   * tags still cut it. Absent: the tag's own box.
   */
  minBottom?: number;
}

const EPS = 0.01;

function intersects(a: Rect, b: Rect): boolean {
  return a[0] < b[2] - EPS && b[0] < a[2] - EPS && a[1] < b[3] - EPS && b[1] < a[3] - EPS;
}

/**
 * How the field's box [l, t, r, b] gives way to `o`, which lies in its growth: cut at the right
 * (o starts right of the tag's own box) or at the bottom (o starts below it), whichever keeps more
 * of the box when both would do.
 */
function giveWay(spec: GrowthSpec, box: Rect, o: Rect): Rect {
  const [l, t, r, b] = box;
  const [, , ownR, ownB] = spec.own;
  const right = Math.max(ownR, Math.min(r, o[0] - GAP_X));
  const bottom = Math.max(ownB, Math.min(b, o[1] - GAP_Y));
  const byRight: Rect = [l, t, right, b];
  const byBottom: Rect = [l, t, r, bottom];
  const rightClears = !spec.fixedRight && !intersects(o, byRight);
  const bottomClears = !spec.fixedBottom && !intersects(o, byBottom);
  if (rightClears && bottomClears)
    return (right - l) * (b - t) >= (r - l) * (bottom - t) ? byRight : byBottom;
  if (rightClears) return byRight;
  if (bottomClears) return byBottom;
  // Neither cut alone clears it (it sits within the gaps of the tag's own box): both sides give
  // way, unless a side the tag fixed keeps it in anyway (then the author's size stands).
  const both: Rect = [l, t, spec.fixedRight ? r : right, spec.fixedBottom ? b : bottom];
  return intersects(o, both) ? box : both;
}

/**
 * The box a field takes: `want`, cut back wherever one of `fields` (other fields and tags) or
 * `text` would lie inside it (with GAP_X/GAP_Y kept free), never below `own`, and never by text
 * above `minBottom`. An obstacle overlapping the tag's own box is the author's layout and is left
 * alone.
 */
export function growInto(spec: GrowthSpec, fields: readonly Rect[], text: readonly Rect[] = []): Rect {
  const box = giveWayToAll(spec, [...spec.want], fields, spec.own[3]);
  const floor = Math.min(Math.max(spec.own[3], spec.minBottom ?? spec.own[3]), box[3]);
  return giveWayToAll(spec, box, text, floor);
}

/**
 * `box` cut back for each obstacle in turn, never above `floor` (the least bottom the field keeps;
 * the tag's own bottom, or `minBottom` for text).
 */
function giveWayToAll(spec: GrowthSpec, start: Rect, obstacles: readonly Rect[], floor: number): Rect {
  let box = start;
  for (const o of obstacles) {
    if (intersects(o, spec.own)) continue;
    const reach: Rect = [box[0], box[1], box[2] + GAP_X, box[3] + GAP_Y];
    if (!intersects(o, reach)) continue;
    const [l, t, r, b] = spec.own;
    if (floor <= b) box = giveWay(spec, box, o);
    // Text under the tag (not beside it) within the least height: the field reaches over it.
    else if (o[1] >= b - EPS && o[0] < r && o[1] - GAP_Y < floor) box = [box[0], box[1], box[2], floor];
    else box = giveWay({ ...spec, own: [l, t, r, floor] }, box, o);
  }
  return box;
}
