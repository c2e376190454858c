import { type AreaBox, fitOnPage } from './geometry.ts';

/**
 * The editor's snapping: a moved or resized box whose edge comes within `tolerance` (a fraction of
 * the page) of another box's edge (left, right, top, bottom, or centre line) lines up with it.
 */
export type Edit = 'move' | 'resize';

function nearest(value: number, targets: number[], tolerance: number): number | null {
  let best: number | null = null;
  for (const t of targets)
    if (Math.abs(t - value) <= tolerance && (best === null || Math.abs(t - value) < Math.abs(best - value)))
      best = t;
  return best;
}

/** Offset that lines up the first of `edges` that comes close to a target, or 0. */
function snapOffset(edges: number[], targets: number[], tolerance: number): number {
  let best: number | null = null;
  for (const e of edges) {
    const t = nearest(e, targets, tolerance);
    if (t !== null && (best === null || Math.abs(t - e) < Math.abs(best))) best = t - e;
  }
  return best ?? 0;
}

export function snapBox(box: AreaBox, others: readonly AreaBox[], edit: Edit, tolerance = 0.006): AreaBox {
  const xs = others.flatMap((o) => [o.x, o.x + o.w, o.x + o.w / 2]);
  const ys = others.flatMap((o) => [o.y, o.y + o.h, o.y + o.h / 2]);
  if (edit === 'move') {
    const dx = snapOffset([box.x, box.x + box.w, box.x + box.w / 2], xs, tolerance);
    const dy = snapOffset([box.y, box.y + box.h, box.y + box.h / 2], ys, tolerance);
    return fitOnPage({ ...box, x: box.x + dx, y: box.y + dy });
  }
  // Resizing moves the right and bottom edges only (the box's handle is its bottom-right corner).
  const right = nearest(box.x + box.w, xs, tolerance);
  const bottom = nearest(box.y + box.h, ys, tolerance);
  return fitOnPage({
    ...box,
    w: right !== null ? right - box.x : box.w,
    h: bottom !== null ? bottom - box.y : box.h,
  });
}
