import { useEffect, useRef, useState } from 'react';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { subscribeFeed } from '../../state/terminal-feeds';

/** The terminal grows with its output up to this many rows, then scrolls inside. */
const MAX_ROWS = 20;
/** Characters per xterm write: a few hundred short lines, each of which costs xterm a scroll of its view. */
const WRITE_PIECE = 2 * 1024;

/**
 * A live cell's output (running, or run in this session) in a real terminal emulator (colours, progress bars, carriage returns). Writes go
 * straight from the feed into xterm, never through React state; xterm parses in its own batches.
 */
export function TerminalView({ cellId, onKeys = null }: { cellId: string; onKeys?: ((data: string) => void) | null }) {
  const host = useRef<HTMLDivElement>(null);
  const termHandle = useRef<Terminal | null>(null);
  // Read by the terminal's key handler, so a new function does not rebuild the terminal.
  const keys = useRef(onKeys);
  useEffect(() => {
    keys.current = onKeys;
  }, [onKeys]);
  // A run that printed nothing (a plot, a silent command) shows no empty black strip.
  const [hasOutput, setHasOutput] = useState(false);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const term = new Terminal({
      convertEol: true,
      disableStdin: true,
      cursorBlink: false,
      cursorInactiveStyle: 'none',
      rows: 1,
      cols: 80,
      scrollback: 10_000,
      fontSize: 12,
      lineHeight: 1.15,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace',
      theme: { background: '#101218', foreground: '#d8dee9', cursor: '#101218' },
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(el);
    termHandle.current = term;
    // While the cell runs, what is typed here goes to its program (a password prompt, a full-screen
    // menu), as in any terminal.
    const typing = term.onData((data) => keys.current?.(data));

    const fitColumns = () => {
      const dims = fit.proposeDimensions();
      if (dims && Number.isFinite(dims.cols) && dims.cols > 10 && dims.cols !== term.cols) term.resize(dims.cols, term.rows);
    };
    // Frames queued below may fire after the cleanup has disposed of the terminal (xterm then warns
    // of a leak on the console): they check this first.
    let disposed = false;
    let growQueued = false;
    const grow = () => {
      growQueued = false;
      if (disposed) return;
      const buf = term.buffer.active;
      // The cursor's line must stay on screen (xterm scrolls to keep it), so it counts even when empty.
      const lines = buf.baseY + buf.cursorY + 1;
      const rows = Math.max(1, Math.min(MAX_ROWS, lines));
      if (rows !== term.rows) term.resize(term.cols, rows);
    };
    // Resizing per write would re-layout on every batch; once per frame is enough.
    const afterWrite = () => {
      if (growQueued || term.rows >= MAX_ROWS) return;
      growQueued = true;
      requestAnimationFrame(grow);
    };
    fitColumns();
    let seen = false;
    // A trailing newline is held back until more output comes: xterm always shows the cursor's line,
    // so writing it at once would leave an empty last row under every finished run.
    let heldNewline = false;
    const onChunk = (chunk: string) => {
      if (!chunk) return;
      if (!seen) {
        seen = true;
        setHasOutput(true);
      }
      let text = heldNewline ? `\n${chunk}` : chunk;
      heldNewline = text.endsWith('\n');
      if (heldNewline) text = text.slice(0, -1);
      // xterm parses each write whole before it checks its time budget and yields: a burst of
      // megabytes in one write held the page for seconds (issue 25 item 13). In pieces, it paints
      // between them. (xterm keeps an escape sequence or a surrogate pair cut between writes.)
      for (let at = 0; at < text.length; at += WRITE_PIECE) {
        const last = at + WRITE_PIECE >= text.length;
        term.write(last && at === 0 ? text : text.slice(at, at + WRITE_PIECE), last ? afterWrite : undefined);
      }
    };
    const unsubscribe = subscribeFeed(cellId, onChunk);

    let fitQueued = false;
    const ro = new ResizeObserver(() => {
      if (fitQueued) return;
      fitQueued = true;
      requestAnimationFrame(() => {
        fitQueued = false;
        if (!disposed) fitColumns();
      });
    });
    ro.observe(el);
    return () => {
      disposed = true;
      unsubscribe();
      typing.dispose();
      ro.disconnect();
      term.dispose();
      termHandle.current = null;
    };
  }, [cellId]);

  const typeable = onKeys !== null;
  useEffect(() => {
    const t = termHandle.current;
    if (!t) return;
    t.options.disableStdin = !typeable;
    t.options.cursorInactiveStyle = typeable ? 'outline' : 'none';
  }, [typeable, cellId]);

  return (
    <div
      className={hasOutput ? 'terminal' : 'terminal terminal-empty'}
      ref={host}
      data-testid="terminal"
      aria-label="Output"
      role="region"
    />
  );
}
