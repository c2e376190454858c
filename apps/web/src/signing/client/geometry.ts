// The area rules are shared with the template editor (@esign/domain geometry.ts): a field is shown
// to the signer exactly where the editor placed it, on the same page images.
import type { Box } from '@esign/domain';

export { areaAspect, areaToPercent, areaToPixels, type Box, compareAreas } from '@esign/domain';

/** Scales (width, height) down to fit inside (maxWidth, maxHeight), keeping the ratio; never up. */
export function fitWithin(
  width: number,
  height: number,
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Bounding box of strokes (points as fractions of the drawing surface), or null when empty. */
export function strokeBounds(strokes: ReadonlyArray<ReadonlyArray<readonly [number, number]>>): Box | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const s of strokes)
    for (const [x, y] of s) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  return minX === Infinity ? null : { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}
