import { type AreaBox, areaToPercent, fitOnPage, snapBox } from '@esign/domain';
import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import { t } from '../../messages/index.ts';
import { type EditorArea, type EditorField, TYPE_LABEL } from './model.ts';

// One area of a field on a page: drawn with the signing page's geometry (areaToPercent), moved
// and resized by pointer (mouse, pen, touch) with snapping to the other fields' edges, or by keys.

/** Arrow keys move (with Alt: resize) by half a percent of the page; with Shift by five. */
const KEY_STEP = 0.005;
const KEY_STEP_LARGE = 0.05;

export interface FieldBoxProps {
  field: EditorField;
  area: EditorArea;
  index: number;
  colour: string;
  selected: boolean;
  /** The other areas on the same page, to snap to. */
  others: AreaBox[];
  onSelect: () => void;
  onCommit: (box: AreaBox) => void;
  onKeyCommand: (command: 'delete' | 'duplicate' | 'deselect') => void;
}

interface Drag {
  mode: 'move' | 'resize';
  pointerId: number;
  startX: number;
  startY: number;
  start: AreaBox;
  pageWidth: number;
  pageHeight: number;
  /** The box as last drawn (the state may not have rendered yet when the pointer lifts). */
  last: AreaBox | null;
}

function keyBox(e: KeyboardEvent, box: AreaBox): AreaBox | null {
  const step = e.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
  const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[
    e.key
  ];
  if (!d) return null;
  const [dx, dy] = d as [number, number];
  return e.altKey
    ? fitOnPage({ ...box, w: box.w + dx, h: box.h + dy })
    : fitOnPage({ ...box, x: box.x + dx, y: box.y + dy });
}

/**
 * Moving (the box) or resizing (its corner handle) with any pointer: the box follows, snapped to
 * the other fields, and the change is committed once, when the pointer lifts.
 */
function useBoxDrag(props: Pick<FieldBoxProps, 'area' | 'others' | 'onSelect' | 'onCommit'>) {
  const [draft, setDraft] = useState<AreaBox | null>(null);
  const drag = useRef<Drag | null>(null);
  const begin = (e: PointerEvent<HTMLElement>, mode: Drag['mode']) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    e.preventDefault();
    props.onSelect();
    const page = (e.currentTarget.closest('.ed-page') as HTMLElement).getBoundingClientRect();
    const target = e.currentTarget.closest('.ed-field') as HTMLElement;
    target.setPointerCapture(e.pointerId);
    target.focus({ preventScroll: true });
    const { x, y, w, h } = props.area;
    drag.current = {
      ...{ mode, pointerId: e.pointerId, startX: e.clientX, startY: e.clientY, start: { x, y, w, h } },
      ...{ pageWidth: page.width, pageHeight: page.height, last: null },
    };
  };
  const move = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    const dx = (e.clientX - d.startX) / d.pageWidth;
    const dy = (e.clientY - d.startY) / d.pageHeight;
    if (!d.last && Math.abs(e.clientX - d.startX) + Math.abs(e.clientY - d.startY) < 3) return;
    const raw =
      d.mode === 'move'
        ? { ...d.start, x: d.start.x + dx, y: d.start.y + dy }
        : { ...d.start, w: d.start.w + dx, h: d.start.h + dy };
    d.last = snapBox(fitOnPage(raw), props.others, d.mode);
    setDraft(d.last);
  };
  const end = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    drag.current = null;
    // A cancelled gesture (the browser took it over) puts the field back where it was.
    if (d.last && e.type === 'pointerup') props.onCommit(d.last);
    setDraft(null);
  };
  return { draft, begin, move, end };
}

export function FieldBox(props: FieldBoxProps) {
  const { field, area, colour, selected } = props;
  const { draft, begin, move, end } = useBoxDrag(props);
  const box = draft ?? area;
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const next = keyBox(e, area);
    if (next) {
      e.preventDefault();
      props.onCommit(next);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      props.onKeyCommand('delete');
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'd') {
      e.preventDefault();
      props.onKeyCommand('duplicate');
    } else if (e.key === 'Escape') props.onKeyCommand('deselect');
  };

  const label = t('editor.field.label', {
    name: field.name || TYPE_LABEL[field.type],
    type: TYPE_LABEL[field.type].toLowerCase(),
    role: field.role,
    required: field.required ? 'yes' : 'no',
  });
  return (
    // biome-ignore lint/a11y/useSemanticElements: a draggable box with a resize handle inside cannot be a <button>
    <div
      role="button"
      tabIndex={0}
      aria-label={label}
      aria-pressed={selected}
      data-field={field.name}
      data-area={props.index}
      className={`ed-field${selected ? ' selected' : ''}${draft ? ' dragging' : ''}`}
      style={{ ...areaToPercent(box), borderColor: colour, background: `${colour}22` }}
      onPointerDown={(e) => begin(e, 'move')}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
      onFocus={props.onSelect}
      onKeyDown={onKeyDown}
    >
      <span className="ed-field-label" style={{ color: colour }}>
        {field.name || TYPE_LABEL[field.type]}
        {field.required ? ' *' : ''}
      </span>
      {selected ? (
        <span
          className="ed-handle"
          aria-hidden="true"
          style={{ background: colour }}
          onPointerDown={(e) => begin(e, 'resize')}
        />
      ) : null}
    </div>
  );
}
