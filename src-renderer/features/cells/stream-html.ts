import { ansiToHtml } from './ansi-to-html';
import type { StreamPart } from './output-groups';

// A finished run's text as HTML (ansiToHtml escapes everything it emits), for StreamBlock and CutStreamBlock.

/** A part of text (not a marker of rows left out). */
export type TextPart = Exclude<StreamPart, { name: 'cut' }>;

/** The parts as HTML, each ending in its newline but (unless `open`) the last. */
export function partsHtml(parts: TextPart[], open: boolean): string {
  return parts.map((p, i) => piece(p, p.text, open || i < parts.length - 1)).join('');
}

/** One stretch of a stream as HTML; stderr and the app's notes each wrapped in their marked span. */
export function piece(part: TextPart, text: string, keepNewline: boolean): string {
  const rendered = ansiToHtml(text, Number.MAX_SAFE_INTEGER);
  const body = rendered.html + (text.endsWith('\n') && keepNewline ? '\n' : '');
  if (part.name === 'stderr') return `<span class="stream-stderr" data-stream="stderr" title="printed to stderr">${body}</span>`;
  if (part.name === 'note') return `<span class="stream-note" data-stream="note" title="a note from the app about this run">${body}</span>`;
  return body;
}
