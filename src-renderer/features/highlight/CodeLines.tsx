import { useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { escapeHtml } from './escape-html';
import { useHighlighter } from './HighlightedCode';
import './code-lines.css';

/** Drawn at the start of each row a long line wraps onto, in the gutter left free for it. */
export const WRAP_MARK = '↪';

/**
 * Code shown whole where a person decides whether it runs (a cell's approval card, an `oi mcp` client's
 * question, an install command): each line of the code wraps at the box's width instead of running out
 * of sight, and every row a line wraps onto starts with WRAP_MARK, so a wrapped line is never read as
 * two. The mark is drawn by CSS from an attribute (code-lines.css), so it is not text: a copy, a
 * selection and textContent give the code exactly.
 */
export function CodeLines({ code, language, className, testId }: { code: string; language: string; className?: string; testId?: string }) {
  const highlighter = useHighlighter();
  const lines = useMemo(
    () => (highlighter ? highlighter.highlightLines(code, language) : code.split('\n').map(escapeHtml)),
    [highlighter, code, language],
  );
  const box = useRef<HTMLElement>(null);
  useWrapMarks(box, lines);
  return (
    <pre className={`code-lines ${className ?? ''}`} data-testid={testId}>
      <code className={`hl language-${language}`} ref={box}>
        {lines.map((html, i) => (
          // The newline between lines is text (textContent is the code); CSS collapses it, each line being a block.
          <CodeLine key={i} html={html} last={i === lines.length - 1} />
        ))}
      </code>
    </pre>
  );
}

function CodeLine({ html, last }: { html: string; last: boolean }) {
  return (
    <>
      <span className="code-line" dangerouslySetInnerHTML={{ __html: html }} />
      {last ? null : '\n'}
    </>
  );
}

/**
 * Keeps each line's `data-wrap-marks` at one WRAP_MARK per row it wraps onto: a line's height is its
 * rows (the line height is fixed), measured whenever it changes — a narrower window, the code growing
 * as it streams, a font arriving late. The marks are absolutely placed, so setting them never changes
 * a height and the observer never feeds itself.
 */
function useWrapMarks(box: RefObject<HTMLElement | null>, lines: readonly string[]): void {
  const observer = useRef<ResizeObserver | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    observer.current ??= new ResizeObserver((entries) => {
      for (const entry of entries) markRows(entry.target as HTMLElement, entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height);
    });
    // observe() on a line already observed starts it again (one more measurement), which is harmless.
    for (const line of el.querySelectorAll<HTMLElement>(':scope > .code-line')) observer.current.observe(line);
  }, [box, lines]);
  useLayoutEffect(
    () => () => {
      observer.current?.disconnect();
      observer.current = null;
    },
    [],
  );
}

function markRows(line: HTMLElement, height: number): void {
  const rowHeight = parseFloat(getComputedStyle(line).lineHeight);
  const rows = rowHeight > 0 ? Math.max(1, Math.round(height / rowHeight)) : 1;
  const marks =
    rows > 1
      ? Array<string>(rows - 1)
          .fill(WRAP_MARK)
          .join('\n')
      : null;
  if (marks === null) line.removeAttribute('data-wrap-marks');
  else if (line.dataset.wrapMarks !== marks) line.dataset.wrapMarks = marks;
}
