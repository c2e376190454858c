import { type AreaBox, type FieldType, fitOnPage } from '@esign/domain';
import { type DragEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { FieldBox } from './field-box.tsx';
import { defaultSize, type EditorArea, type EditorField, isType, type Selection } from './model.ts';

// One page of a document: its image (loaded only when the page comes near the screen, so a
// 200-page document does not fetch 200 images), the field areas on it, and drawing a new field.

export const DRAG_TYPE = 'application/x-esign-field-type';

export interface PageInfo {
  doc: number;
  number: number;
  width: number;
  height: number;
  image_url: string;
  label: string;
}

export interface PageViewProps {
  page: PageInfo;
  placed: { field: EditorField; area: EditorArea; index: number }[];
  colourOf: (role: string) => string;
  selection: Selection | null;
  /** The field type waiting to be drawn (picked in the palette), if any. */
  armed: FieldType | null;
  onSelect: (s: Selection | null) => void;
  onCommitArea: (key: string, index: number, box: AreaBox) => void;
  onPlace: (type: FieldType, page: { doc: number; page: number }, box: AreaBox) => void;
  onKeyCommand: (key: string, index: number, command: 'delete' | 'duplicate' | 'deselect') => void;
  onVisible: (page: { doc: number; page: number }) => void;
}

/** Starts loading when the page is within about two screens of the viewport; stays loaded. */
function useNearScreen(ref: React.RefObject<HTMLElement | null>, onMostlyVisible: () => void) {
  const [near, setNear] = useState(false);
  const visible = useRef(onMostlyVisible);
  visible.current = onMostlyVisible;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const nearObserver = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          nearObserver.disconnect();
        }
      },
      // The pages scroll inside .ed-pages, so that is the root the margin extends.
      { root: el.closest('.ed-pages'), rootMargin: '1200px 0px' },
    );
    const seen = new IntersectionObserver(
      (entries) => {
        // Half the page in view, or (zoomed in, a page taller than the view) half the view filled by it.
        const mostly = (e: IntersectionObserverEntry) =>
          e.intersectionRatio >= 0.5 || e.intersectionRect.height >= (e.rootBounds?.height ?? Infinity) / 2;
        if (entries.some(mostly)) visible.current();
      },
      { root: el.closest('.ed-pages'), threshold: [0, 0.25, 0.5, 0.75, 1] },
    );
    nearObserver.observe(el);
    seen.observe(el);
    return () => {
      nearObserver.disconnect();
      seen.disconnect();
    };
  }, [ref]);
  return near;
}

/** Drawing a new field: a pointer down and up (a click or tap) or a drag (its box), and dropping a palette type. */
function useDrawing(
  ref: React.RefObject<HTMLDivElement | null>,
  props: Pick<PageViewProps, 'armed' | 'onPlace' | 'onSelect' | 'onVisible'>,
  where: { doc: number; page: number },
) {
  const { armed } = props;
  const [band, setBand] = useState<{ x0: number; y0: number; box: AreaBox } | null>(null);
  const fraction = (e: { clientX: number; clientY: number }) => {
    const r = ref.current!.getBoundingClientRect();
    return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height };
  };
  const centredBox = (type: FieldType, p: { x: number; y: number }) => {
    const size = defaultSize(type);
    return fitOnPage({ x: p.x - size.w / 2, y: p.y - size.h / 2, ...size });
  };
  const down = (e: PointerEvent<HTMLDivElement>) => {
    props.onVisible(where);
    if (!armed) return props.onSelect(null);
    e.preventDefault();
    ref.current!.setPointerCapture(e.pointerId);
    const p = fraction(e);
    setBand({ x0: p.x, y0: p.y, box: { x: p.x, y: p.y, w: 0, h: 0 } });
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    if (!band) return;
    const p = fraction(e);
    const [x0, y0] = [band.x0, band.y0];
    setBand({
      ...band,
      box: { x: Math.min(p.x, x0), y: Math.min(p.y, y0), w: Math.abs(p.x - x0), h: Math.abs(p.y - y0) },
    });
  };
  const up = () => {
    if (!band || !armed) return;
    const { box } = band;
    setBand(null);
    // A click (or a tiny drag) places a field of the type's usual size there; a drag draws its box.
    const drawn =
      box.w > 0.01 && box.h > 0.008 ? fitOnPage(box) : centredBox(armed, { x: band.x0, y: band.y0 });
    props.onPlace(armed, where, drawn);
  };
  const drop = (e: DragEvent<HTMLDivElement>) => {
    const type = e.dataTransfer.getData(DRAG_TYPE);
    if (!isType(type)) return;
    e.preventDefault();
    props.onPlace(type, where, centredBox(type, fraction(e)));
  };
  return { band, down, move, up, cancel: () => setBand(null), drop };
}

export function PageView(props: PageViewProps) {
  const { page, armed } = props;
  const ref = useRef<HTMLDivElement>(null);
  const where = { doc: page.doc, page: page.number };
  const near = useNearScreen(ref, () => props.onVisible(where));
  const draw = useDrawing(ref, props, where);
  const boxes = props.placed.map(({ area }) => ({ x: area.x, y: area.y, w: area.w, h: area.h }));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a page is a labelled group of fields; a fieldset cannot hold an image canvas like this
    <div
      ref={ref}
      className={`ed-page${armed ? ' armed' : ''}`}
      role="group"
      aria-label={page.label}
      data-page={`${page.doc}:${page.number}`}
      style={{ aspectRatio: `${page.width} / ${page.height}` }}
      onPointerDown={draw.down}
      onPointerMove={draw.move}
      onPointerUp={draw.up}
      onPointerCancel={draw.cancel}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={draw.drop}
    >
      {near ? <img src={page.image_url} alt="" draggable={false} decoding="async" /> : null}
      <span className="ed-page-number" aria-hidden="true">
        {page.number}
      </span>
      {props.placed.map(({ field, area, index }, i) => (
        <FieldBox
          key={`${field.key}:${index}`}
          field={field}
          area={area}
          index={index}
          colour={props.colourOf(field.role)}
          selected={props.selection?.key === field.key && props.selection.area === index}
          others={boxes.filter((_, j) => j !== i)}
          onSelect={() => props.onSelect({ key: field.key, area: index })}
          onCommit={(box) => props.onCommitArea(field.key, index, box)}
          onKeyCommand={(c) => props.onKeyCommand(field.key, index, c)}
        />
      ))}
      {draw.band ? <div className="ed-band" style={pixelsStyle(draw.band.box)} /> : null}
    </div>
  );
}

const pixelsStyle = (b: AreaBox) => ({
  left: `${b.x * 100}%`,
  top: `${b.y * 100}%`,
  width: `${b.w * 100}%`,
  height: `${b.h * 100}%`,
});
