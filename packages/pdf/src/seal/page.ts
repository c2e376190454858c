import { areaToPixels } from '@esign/domain';
import { ops, type PDF, type PDFPage, PdfDict, type PdfObject, PdfRef } from '@libpdf/core';

/**
 * The page as a person sees it: the visible box (CropBox within MediaBox) after /Rotate, in points,
 * with the origin at the bottom-left. `matrix` maps these display coordinates to PDF user space.
 */
export interface DisplayPage {
  width: number;
  height: number;
  matrix: [number, number, number, number, number, number];
}

export function displayPage(page: PDFPage): DisplayPage {
  const media = page.getMediaBox();
  const crop = page.getCropBox();
  const llx = Math.max(media.x, crop.x);
  const lly = Math.max(media.y, crop.y);
  const urx = Math.min(media.x + media.width, crop.x + crop.width);
  const ury = Math.min(media.y + media.height, crop.y + crop.height);
  const cw = urx > llx ? urx - llx : media.width;
  const ch = ury > lly ? ury - lly : media.height;
  const x0 = urx > llx ? llx : media.x;
  const y0 = ury > lly ? lly : media.y;
  switch (page.rotation) {
    case 90:
      return { width: ch, height: cw, matrix: [0, 1, -1, 0, x0 + cw, y0] };
    case 180:
      return { width: cw, height: ch, matrix: [-1, 0, 0, -1, x0 + cw, y0 + ch] };
    case 270:
      return { width: ch, height: cw, matrix: [0, -1, 1, 0, x0, y0 + ch] };
    default:
      return { width: cw, height: ch, matrix: [1, 0, 0, 1, x0, y0] };
  }
}

/**
 * Area given as fractions of the displayed page, origin top-left → rectangle in display points
 * (y up). The same areaToPixels the signing page and the template editor draw with (@esign/domain).
 */
export function areaRect(
  area: { x: number; y: number; w: number; h: number },
  page: DisplayPage,
): { x: number; y: number; w: number; h: number } {
  const b = areaToPixels(area, page.width, page.height);
  return { x: b.x, y: page.height - b.y - b.height, w: b.width, h: b.height };
}

let formCounter = 0;

/** Paints a Form XObject drawn in display coordinates on top of the page's content. */
export function paintOnPage(pdf: PDF, page: PDFPage, form: PdfRef, display: DisplayPage): void {
  const resources = ownResources(pdf, page);
  let xobjects = resolve(pdf, resources.get('XObject'));
  if (!(xobjects instanceof PdfDict)) {
    xobjects = new PdfDict();
    resources.set('XObject', xobjects);
  }
  let name: string;
  do {
    name = `EsignSeal${formCounter++}`;
  } while ((xobjects as PdfDict).has(name));
  (xobjects as PdfDict).set(name, form);
  const [a, b, c, d, e, f] = display.matrix;
  page.drawOperators([
    ops.pushGraphicsState(),
    ops.concatMatrix(a, b, c, d, e, f),
    ops.paintXObject(name),
    ops.popGraphicsState(),
  ]);
}

function resolve(pdf: PDF, obj: PdfObject | undefined): PdfObject | undefined {
  return obj instanceof PdfRef ? (pdf.getObject(obj) ?? undefined) : obj;
}

/**
 * The page's Resources dictionary. Resources inherited from a parent /Pages node are attached to
 * the page itself first (the same object), so adding an entry never hides the inherited ones.
 */
function ownResources(pdf: PDF, page: PDFPage): PdfDict {
  if (!page.dict.has('Resources')) {
    let node: PdfObject | undefined = resolve(pdf, page.dict.get('Parent'));
    for (let depth = 0; node instanceof PdfDict && depth < 64; depth++) {
      const inherited = node.get('Resources');
      if (inherited) {
        page.dict.set('Resources', inherited);
        break;
      }
      node = resolve(pdf, node.get('Parent'));
    }
  }
  return page.getResources();
}
