import { useEffect, useRef } from 'react';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';

/**
 * A cell's live output in a real terminal emulator (colours, progress bars, carriage returns).
 * Only chunks not yet written are sent to xterm, so a growing output costs one write per batch.
 */
export function TerminalView({ chunks }: { chunks: string[] }) {
  const host = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal | null>(null);
  const written = useRef(0);

  useEffect(() => {
    if (!host.current) return;
    const t = new Terminal({
      convertEol: true,
      disableStdin: true,
      rows: 4,
      cols: 120,
      scrollback: 5000,
      fontSize: 12,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      theme: { background: '#0f1117', foreground: '#d8dee9' },
    });
    t.open(host.current);
    term.current = t;
    written.current = 0;
    return () => {
      t.dispose();
      term.current = null;
    };
  }, []);

  useEffect(() => {
    const t = term.current;
    if (!t) return;
    for (; written.current < chunks.length; written.current++) t.write(chunks[written.current] ?? '');
    // Grow with the output up to a screenful; past that xterm scrolls.
    const lines = t.buffer.active.length;
    const rows = Math.max(2, Math.min(24, lines));
    if (rows !== t.rows) t.resize(t.cols, rows);
  }, [chunks]);

  return <div className="terminal" ref={host} data-testid="terminal" />;
}
