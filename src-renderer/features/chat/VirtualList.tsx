import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { computeWindow } from './virtual-window';

interface Props<T> {
  items: readonly T[];
  keyOf(item: T): string;
  /** A guess at an item's height before it is measured. */
  estimate(item: T): number;
  render(item: T): ReactNode;
  /** Changing it jumps to the end (another conversation was opened). */
  resetKey: string;
  className?: string;
  testId?: string;
  label?: string;
}

/** Within this distance of the end, the list keeps following new content. */
const STICK_PX = 48;

/**
 * A list that mounts only the items near the viewport, with heights measured as they render. Long
 * conversations stay light: a cell's terminal (xterm) exists only while the cell is near the viewport.
 * It follows the end while the user is there, and keeps the view still when items above it resize.
 */
export function VirtualList<T>({ items, keyOf, estimate, render, resetKey, className, testId, label }: Props<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const [heights, setHeights] = useState<ReadonlyMap<string, number>>(() => new Map());
  const [viewport, setViewport] = useState<Viewport>({ top: 0, height: 800 });
  // Mirrors for event handlers, which must not wait for a render to see the latest values.
  const measured = useRef(new Map<string, number>());
  const stick = useRef(true);
  const firstVisible = useRef(0);
  const indexOfKey = useRef(new Map<string, number>());
  const indexMap = useMemo(() => new Map(items.map((item, i) => [keyOf(item), i])), [items, keyOf]);

  const win = computeWindow(
    items.length,
    (i) => heights.get(keyOf(items[i] as T)) ?? estimate(items[i] as T),
    viewport.top,
    viewport.height,
  );

  useLayoutEffect(() => {
    stick.current = true;
  }, [resetKey]);
  useLayoutEffect(() => {
    firstVisible.current = win.firstVisible;
    indexOfKey.current = indexMap;
  });

  const onHeight = useCallback((key: string, h: number, fallback: number) => {
    const old = measured.current.get(key) ?? fallback;
    if (Math.abs(old - h) < 0.5) return;
    measured.current.set(key, h);
    const el = scroller.current;
    const index = indexOfKey.current.get(key) ?? Infinity;
    // An item above the first visible one changed size: move the scroll position with it so what the
    // user is reading stays put.
    if (el && !stick.current && index < firstVisible.current) el.scrollTop += h - old;
    setHeights(new Map(measured.current));
  }, []);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    setViewport(sameViewport(el));
  };

  // Following the end reads scrollHeight, which lays the page out there and then. A streamed turn
  // commits once per message from the server, often several a frame, so the read waits for the frame
  // (animation-frame callbacks run before its layout and paint): one layout a frame, not one a commit,
  // and nothing is painted before the list has moved.
  const follow = useRef(0);
  useLayoutEffect(() => {
    if (!stick.current || follow.current !== 0) return;
    follow.current = requestAnimationFrame(() => {
      follow.current = 0;
      const el = scroller.current;
      if (el && stick.current) el.scrollTop = el.scrollHeight;
    });
  });
  useEffect(() => () => cancelAnimationFrame(follow.current), []);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
      setViewport(sameViewport(el));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  return (
    <div
      className={className}
      ref={scroller}
      onScroll={onScroll}
      data-testid={testId}
      role="log"
      aria-label={label}
      aria-live="polite"
      tabIndex={0}
    >
      <div className="vlist-body" style={{ height: win.total }}>
        <div className="vlist-window" style={{ transform: `translateY(${win.offset}px)` }}>
          {items.slice(win.start, win.end).map((item) => {
            const key = keyOf(item);
            return (
              <Measured key={key} id={key} fallback={estimate(item)} onHeight={onHeight}>
                {render(item)}
              </Measured>
            );
          })}
        </div>
      </div>
    </div>
  );
}

type Viewport = { top: number; height: number };

/** The scroller's viewport as a state update that keeps the old object (so no render) when it has not moved. */
function sameViewport(el: HTMLElement): (old: Viewport) => Viewport {
  const top = el.scrollTop;
  const height = el.clientHeight;
  return (old) => (old.top === top && old.height === height ? old : { top, height });
}

function Measured({
  id,
  fallback,
  onHeight,
  children,
}: {
  id: string;
  fallback: number;
  onHeight(key: string, h: number, fallback: number): void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Measured from the observer (which also reports the first size), not synchronously on mount: a
    // synchronous update would mount the next items in the same task, and opening a long conversation
    // would become one long chain of layout work instead of a few frames.
    const ro = new ResizeObserver(() => onHeight(id, el.getBoundingClientRect().height, fallback));
    ro.observe(el);
    return () => ro.disconnect();
  }, [id, fallback, onHeight]);
  return (
    <div ref={ref} className="vlist-item" data-key={id}>
      {children}
    </div>
  );
}
