import { useEffect, useMemo, useRef, useState } from 'react';
import { formatBytes } from '../common/use-now';
import { parseTable } from './table-data';

const ROW_PX = 24;
/** Rows mounted above and below the visible ones. */
const OVERSCAN_ROWS = 20;

/**
 * A CSV or TSV file as a table. Only the rows in view are mounted (fixed-height rows, so the window is
 * arithmetic), which keeps a file of tens of thousands of rows as quick as a short one.
 */
export function TablePreview({ text, path, truncated, size }: { text: string; path: string; truncated: boolean; size: number }) {
  const table = useMemo(() => parseTable(text, path, truncated), [text, path, truncated]);
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // The panel is resized with its handle and the window: mount enough rows for the height it has.
    const observer = new ResizeObserver(() => setView({ top: el.scrollTop, height: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const start = Math.max(0, Math.floor(view.top / ROW_PX) - OVERSCAN_ROWS);
  const end = Math.min(table.rows.length, Math.ceil((view.top + view.height) / ROW_PX) + OVERSCAN_ROWS);
  // Each column as wide as its widest sampled cell (capped), plus the cell's 8px padding on each side.
  const columns = `4.5em ${table.widths.map((w) => `minmax(calc(4ch + 16px), calc(${w}ch + 17px))`).join(' ')}`;
  const count = table.rows.length.toLocaleString();

  return (
    <div className="table-preview" data-testid="table-preview">
      <p className="muted small pad table-note" data-testid="table-summary">
        {count} row{table.rows.length === 1 ? '' : 's'} × {table.widths.length} column{table.widths.length === 1 ? '' : 's'}
        {truncated && ` — the first ${formatBytes(text.length)} of ${formatBytes(size)}`}
        {table.problem && ` · ${table.problem}`}
      </p>
      <div
        className="table-scroll"
        ref={scroller}
        onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
        role="table"
        aria-label={path}
        aria-rowcount={table.rows.length + 1}
      >
        <div className="table-row table-head" role="row" style={{ gridTemplateColumns: columns }}>
          <span role="columnheader" className="table-num">
            #
          </span>
          {table.widths.map((_, c) => (
            <span role="columnheader" key={c} title={table.header[c]}>
              {table.header[c] ?? ''}
            </span>
          ))}
        </div>
        <div className="table-body" style={{ height: table.rows.length * ROW_PX }}>
          {table.rows.slice(start, end).map((row, i) => {
            const index = start + i;
            return (
              <div
                className="table-row"
                role="row"
                aria-rowindex={index + 2}
                key={index}
                style={{ gridTemplateColumns: columns, top: index * ROW_PX }}
              >
                <span role="rowheader" className="table-num">
                  {index + 1}
                </span>
                {table.widths.map((_, c) => (
                  <span role="cell" key={c} title={row[c]}>
                    {row[c] ?? ''}
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
