import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

interface Props {
  /** 'vertical' separates columns (drag left/right); 'horizontal' separates rows. */
  orientation: 'vertical' | 'horizontal';
  label: string;
  value: number;
  min: number;
  max: number;
  /** Called with the pointer's movement since the drag started (px), or a keyboard step. */
  onResize(delta: number, start: number): void;
  step?: number;
}

/** A draggable, keyboard-operable splitter (role=separator, arrows move it). */
export function ResizeHandle({ orientation, label, value, min, max, onResize, step = 16 }: Props) {
  const drag = useRef<{ origin: number; start: number } | null>(null);
  const coord = (e: PointerEvent) => (orientation === 'vertical' ? e.clientX : e.clientY);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { origin: coord(e), start: value };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) onResize(coord(e) - drag.current.origin, drag.current.start);
  };
  const onPointerUp = () => (drag.current = null);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const back = orientation === 'vertical' ? 'ArrowLeft' : 'ArrowUp';
    const forward = orientation === 'vertical' ? 'ArrowRight' : 'ArrowDown';
    if (e.key === back || e.key === forward) {
      e.preventDefault();
      onResize(e.key === back ? -step : step, value);
    }
  };
  return (
    <div
      className={`resize-handle resize-${orientation}`}
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-valuenow={Math.round(value * 100) / 100}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
