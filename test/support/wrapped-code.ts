import type { Locator } from 'playwright-core';

// How a block of code shown by CodeLines (src-renderer/features/highlight/CodeLines.tsx) is laid out in
// the real page: measured from each character's own box (a Range per character), not from the app's
// marks, so a test can hold the marks against what is on screen.

export interface ShownLine {
  /** The rows the line takes on screen (distinct tops of its characters). */
  rows: number;
  /** The marks the app drew for it (data-wrap-marks, one per row it wraps onto). */
  marks: number;
  /** How far right of the line's first character each continuation row starts (px): room for its mark. */
  continuationIndents: number[];
}

export interface ShownCode {
  lines: ShownLine[];
  /** Characters (other than newlines) whose box is not wholly inside the visible box of `box`. */
  outside: Array<{ char: string; index: number }>;
  /** The code block's scrollable width beyond its visible width (0: nothing to scroll sideways to). */
  sidewaysOverflow: number;
  /** What a selection of the whole block gives (what Ctrl+C would copy), and its textContent. */
  selected: string;
  text: string;
  /** The width the longest line would take unwrapped (px), measured in the block's font. */
  longestUnwrapped: number;
}

/** Lays out `code` (a CodeLines block) against `box` (the card it is in, or the block itself). */
export async function shownCode(code: Locator, box: Locator): Promise<ShownCode> {
  const boxHandle = await box.elementHandle();
  return code.evaluate((pre, boxEl) => {
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const left = r.left + el.clientLeft;
      const top = r.top + el.clientTop;
      return { left, top, right: left + el.clientWidth, bottom: top + el.clientHeight };
    };
    const frames = [visible(pre), visible(boxEl as Element)];
    const outside: Array<{ char: string; index: number }> = [];
    let index = 0;
    const lines = [...pre.querySelectorAll<HTMLElement>('.code-line')].map((line) => {
      const rows: Array<{ top: number; left: number }> = [];
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let i = 0; i < text.length; i++, index++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const r = range.getBoundingClientRect();
          if (frames.some((f) => r.left < f.left - 0.5 || r.right > f.right + 0.5 || r.top < f.top - 0.5 || r.bottom > f.bottom + 0.5))
            outside.push({ char: text[i] ?? '', index });
          const row = rows.find((x) => Math.abs(x.top - r.top) < r.height / 2);
          if (!row) rows.push({ top: r.top, left: r.left });
        }
      }
      index++; // the newline between lines
      const first = rows[0]?.left ?? 0;
      return {
        rows: Math.max(1, rows.length),
        marks: line.dataset.wrapMarks ? line.dataset.wrapMarks.split('\n').length : 0,
        continuationIndents: rows.slice(1).map((r) => r.left - first),
      };
    });
    const selection = getSelection();
    selection?.selectAllChildren(pre);
    const selected = selection?.toString() ?? '';
    selection?.removeAllRanges();
    const text = pre.textContent ?? '';
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;font:inherit';
    pre.appendChild(probe);
    let longestUnwrapped = 0;
    for (const l of text.split('\n')) {
      probe.textContent = l;
      longestUnwrapped = Math.max(longestUnwrapped, probe.getBoundingClientRect().width);
    }
    probe.remove();
    return {
      lines,
      outside,
      sidewaysOverflow: pre.scrollWidth - pre.clientWidth,
      selected,
      text,
      longestUnwrapped,
    };
  }, boxHandle);
}
