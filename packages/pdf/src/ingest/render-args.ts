/** Page rendering's arguments and limits (render.ts draws; the pool checks them before sending). */

/** Default scale: 2 output pixels per point (144 dpi). */
export const DEFAULT_SCALE = 2;
export const MAX_SIDE = 8000;
export const MAX_PIXELS = 40_000_000;

export interface RenderOptions {
  /** Output width in pixels (1..8000); the height follows the page's aspect ratio. Default: 2 px per point. */
  width?: number;
}

/** Throws a RangeError for a page number or width no document could have. */
export function checkRenderArgs(pageNumber: number, opts: RenderOptions): void {
  if (!Number.isInteger(pageNumber) || pageNumber < 1)
    throw new RangeError(`pageNumber must be an integer >= 1, got ${pageNumber}`);
  if (opts.width !== undefined && !(Number.isFinite(opts.width) && opts.width >= 1 && opts.width <= MAX_SIDE))
    throw new RangeError(`width must be between 1 and ${MAX_SIDE} pixels, got ${opts.width}`);
}
