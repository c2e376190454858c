import { MAX_FILE_BYTES, MAX_IMAGE_CHARS } from '@esign/domain';
import { fitWithin, strokeBounds } from './geometry.ts';
import { tr } from './i18n.ts';

export const SCRIPT_FONT =
  '"Segoe Script", "Bradley Hand", "Brush Script MT", "Snell Roundhand", "URW Chancery L", "Z003", cursive';
const INK = '#0f172a';

type Point = [number, number];

export interface SignaturePad {
  clear(): void;
  isEmpty(): boolean;
  /** The drawing cropped to its ink, as a PNG data: URI with a transparent background. */
  toDataUrl(): string | null;
  /** Redraws at the canvas's current size (after layout changes). */
  resize(): void;
}

/** One stroke drawn on `c`, its points scaled by (sx, sy): a dot, or a smoothed line. */
function drawStroke(c: CanvasRenderingContext2D, pts: Point[], sx: number, sy: number, width: number) {
  const first = pts[0];
  if (!first) return;
  c.lineWidth = width;
  c.lineCap = 'round';
  c.lineJoin = 'round';
  c.strokeStyle = INK;
  c.fillStyle = INK;
  if (pts.length === 1) {
    c.beginPath();
    c.arc(first[0] * sx, first[1] * sy, width / 2, 0, Math.PI * 2);
    c.fill();
    return;
  }
  c.beginPath();
  c.moveTo(first[0] * sx, first[1] * sy);
  // Quadratic curves through the midpoints smooth the polyline.
  for (let i = 1; i < pts.length - 1; i++) {
    const p = pts[i] as Point;
    const q = pts[i + 1] as Point;
    c.quadraticCurveTo(p[0] * sx, p[1] * sy, ((p[0] + q[0]) / 2) * sx, ((p[1] + q[1]) / 2) * sy);
  }
  const last = pts[pts.length - 1] as Point;
  c.lineTo(last[0] * sx, last[1] * sy);
  c.stroke();
}

/** The pad's drawing: strokes as fractions of the surface, and the surface's CSS size. */
interface Drawing {
  strokes: Point[][];
  cssW: number;
  cssH: number;
}

const penWidth = (d: Drawing) => Math.max(2.5, Math.min(d.cssW / 100, d.cssH / 40));

/** The drawing cropped to its ink, at up to 3x the on-screen size, as a PNG data: URI. */
function exportDrawing(d: Drawing): string | null {
  const b = strokeBounds(d.strokes);
  if (!b) return null;
  const scale = Math.min(3, 1200 / d.cssW);
  const pad = penWidth(d) * scale;
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.ceil(b.width * d.cssW * scale + pad * 2));
  out.height = Math.max(1, Math.ceil(b.height * d.cssH * scale + pad * 2));
  const c = out.getContext('2d');
  if (!c) return null;
  c.translate(pad - b.x * d.cssW * scale, pad - b.y * d.cssH * scale);
  for (const s of d.strokes) drawStroke(c, s, d.cssW * scale, d.cssH * scale, penWidth(d) * scale);
  return out.toDataURL('image/png');
}

/** Pointer input on the canvas: each press starts a stroke, moves extend it, release ends it. */
function listenForStrokes(
  canvas: HTMLCanvasElement,
  d: Drawing,
  on: { start(): void; draw(): void; end(): void },
) {
  let current: Point[] | null = null;
  const at = (e: PointerEvent): Point => {
    const r = canvas.getBoundingClientRect();
    return [(e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height];
  };
  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    on.start();
    canvas.setPointerCapture?.(e.pointerId);
    current = [at(e)];
    d.strokes.push(current);
    on.draw();
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!current) return;
    e.preventDefault();
    const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const ev of events.length ? events : [e]) current.push(at(ev));
    on.draw();
  });
  const end = () => {
    if (!current) return;
    current = null;
    on.end();
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('lostpointercapture', end);
  return { stop: () => (current = null) };
}

/**
 * Drawing with pointer events (mouse, pen and touch alike). Points are kept as fractions of the
 * surface, so a rotated phone or a resized window redraws the same signature.
 */
export function createSignaturePad(canvas: HTMLCanvasElement, onChange: () => void): SignaturePad {
  const ctx = canvas.getContext('2d');
  const d: Drawing = { strokes: [], cssW: 1, cssH: 1 };
  const redraw = () => {
    if (!ctx) return;
    ctx.clearRect(0, 0, d.cssW, d.cssH);
    for (const s of d.strokes) drawStroke(ctx, s, d.cssW, d.cssH, penWidth(d));
  };
  const resize = () => {
    const r = canvas.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    const dpr = window.devicePixelRatio || 1;
    d.cssW = r.width;
    d.cssH = r.height;
    canvas.width = Math.round(d.cssW * dpr);
    canvas.height = Math.round(d.cssH * dpr);
    ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
    redraw();
  };
  const input = listenForStrokes(canvas, d, {
    start: () => {
      if (d.cssW <= 1) resize();
    },
    draw: redraw,
    end: onChange,
  });
  return {
    clear() {
      d.strokes.length = 0;
      input.stop();
      redraw();
      onChange();
    },
    isEmpty: () => d.strokes.length === 0,
    resize,
    toDataUrl: () => exportDrawing(d),
  };
}

/** A typed name drawn in a handwriting-style font, as a PNG data: URI (transparent background). */
export function renderTypedSignature(text: string, fontFamily = SCRIPT_FONT): string | null {
  const value = text.trim();
  if (!value) return null;
  const size = 96;
  const font = `italic ${size}px ${fontFamily}`;
  const probe = document.createElement('canvas').getContext('2d');
  if (!probe) return null;
  probe.font = font;
  const width = Math.ceil(probe.measureText(value).width + size * 0.6);
  const canvas = document.createElement('canvas');
  canvas.width = Math.min(width, 4000);
  canvas.height = Math.round(size * 1.5);
  const c = canvas.getContext('2d');
  if (!c) return null;
  c.font = font;
  c.fillStyle = INK;
  c.textBaseline = 'middle';
  c.fillText(value, size * 0.3, canvas.height / 2, canvas.width - size * 0.6);
  return canvas.toDataURL('image/png');
}

/**
 * An uploaded picture as a data: URI the procedures accept (PNG or JPEG, under their size limit):
 * big images are scaled down first; PNG keeps transparency (signatures, stamps), photos become JPEG.
 */
export async function imageFileToDataUrl(file: File, maxSide = 1600): Promise<string> {
  if (!file.type.startsWith('image/')) throw new Error(tr('edit.error_image_type'));
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error(tr('edit.error_image_read'));
  }
  const keepAlpha = file.type !== 'image/jpeg';
  let side = maxSide;
  try {
    for (let attempt = 0; attempt < 6; attempt++) {
      const { width, height } = fitWithin(bitmap.width, bitmap.height, side, side);
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const c = canvas.getContext('2d');
      if (!c) break;
      const png = keepAlpha && attempt < 3;
      if (!png) {
        c.fillStyle = '#fff';
        c.fillRect(0, 0, width, height);
      }
      c.drawImage(bitmap, 0, 0, width, height);
      const url = png ? canvas.toDataURL('image/png') : canvas.toDataURL('image/jpeg', 0.85);
      if (url.length <= MAX_IMAGE_CHARS) return url;
      side = Math.round(side * 0.7);
    }
  } finally {
    bitmap.close();
  }
  throw new Error(tr('edit.error_image_large'));
}

/** Any file as {name, type, data} with data a base64 data: URI. */
export function readFileValue(file: File): Promise<{ name: string; type: string; data: string }> {
  if (file.size > MAX_FILE_BYTES) {
    return Promise.reject(new Error(tr('edit.error_file_large', { mb: MAX_FILE_BYTES / 1024 / 1024 })));
  }
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      resolve({
        name: file.name,
        type: file.type || 'application/octet-stream',
        data: String(reader.result),
      });
    reader.onerror = () => reject(new Error(tr('edit.error_file_read')));
    reader.readAsDataURL(file);
  });
}
