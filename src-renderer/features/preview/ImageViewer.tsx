import { useEffect, useRef, useState, type PointerEvent, type WheelEvent } from 'react';

const MIN_SCALE = 0.05;
const MAX_SCALE = 32;
const STEP = 1.25;

interface Transform {
  scale: number;
  x: number;
  y: number;
}
type Size = { w: number; h: number };

/** Fit-to-panel (never enlarging past 100%), centred. */
function fitOf(box: Size | null, natural: Size | null): Transform {
  if (!box || !natural) return { scale: 1, x: 0, y: 0 };
  const scale = Math.min(1, box.w / natural.w, box.h / natural.h) || 1;
  return { scale, x: (box.w - natural.w * scale) / 2, y: (box.h - natural.h * scale) / 2 };
}

/** An image with zoom (wheel, buttons, + and -), pan (drag) and fit-to-panel (0 or the button). */
export function ImageViewer({ src, alt }: { src: string; alt: string }) {
  const stage = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState<Size | null>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  // null means "fit": recomputed from the panel's size, so resizing the panel keeps the image fitted.
  const [manual, setManual] = useState<Transform | null>(null);
  const [shownSrc, setShownSrc] = useState(src);
  if (shownSrc !== src) {
    setShownSrc(src);
    setManual(null);
  }
  const drag = useRef<{ x: number; y: number; start: Transform } | null>(null);
  const view = manual ?? fitOf(box, natural);

  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setBox({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const zoomAt = (factor: number, cx: number, cy: number) => {
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, view.scale * factor));
    const k = scale / view.scale;
    setManual({ scale, x: cx - (cx - view.x) * k, y: cy - (cy - view.y) * k });
  };
  const zoomCentre = (factor: number) => zoomAt(factor, (box?.w ?? 0) / 2, (box?.h ?? 0) / 2);
  const actual = () => {
    if (box && natural) setManual({ scale: 1, x: (box.w - natural.w) / 2, y: (box.h - natural.h) / 2 });
  };

  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? STEP : 1 / STEP, e.clientX - rect.left, e.clientY - rect.top);
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, start: view };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) setManual({ ...d.start, x: d.start.x + e.clientX - d.x, y: d.start.y + e.clientY - d.y });
  };

  return (
    <div className="image-viewer">
      <div className="image-tools" role="toolbar" aria-label="Image zoom">
        <button className="small" aria-label="Zoom out" onClick={() => zoomCentre(1 / STEP)}>
          −
        </button>
        <span className="muted small zoom-level" aria-live="polite">
          {Math.round(view.scale * 100)}%
        </span>
        <button className="small" aria-label="Zoom in" onClick={() => zoomCentre(STEP)}>
          +
        </button>
        <button className="small" aria-pressed={manual === null} onClick={() => setManual(null)}>
          Fit
        </button>
        <button className="small" onClick={actual}>
          100%
        </button>
        {natural && (
          <span className="muted small">
            {natural.w} × {natural.h}
          </span>
        )}
      </div>
      <div
        className="image-stage"
        ref={stage}
        tabIndex={0}
        aria-label={`${alt}; drag to pan, wheel or + and − to zoom, 0 to fit`}
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onKeyDown={(e) => {
          if (e.key === '+' || e.key === '=') zoomCentre(STEP);
          else if (e.key === '-') zoomCentre(1 / STEP);
          else if (e.key === '0') setManual(null);
        }}
      >
        <img
          src={src}
          alt={alt}
          data-testid="preview-image"
          draggable={false}
          onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth || 1, h: e.currentTarget.naturalHeight || 1 })}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
        />
      </div>
    </div>
  );
}
