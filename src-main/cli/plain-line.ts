import { stripVTControlCharacters } from 'node:util';

/** Everything but tab and newline below space, and DEL: a file or pipe gets text, not terminal controls. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** A line as a terminal would leave it: CR-LF and CR rewrites resolved, escape codes and controls removed. */
export function plainLine(line: string): string {
  const ends = line.endsWith('\n');
  let text = stripVTControlCharacters(ends ? line.slice(0, -1) : line);
  if (text.includes('\r')) {
    // Each CR returns to the line's start; later text overwrites earlier text, as on a terminal.
    let shown = '';
    for (const segment of text.split('\r')) shown = segment + shown.slice(segment.length);
    text = shown;
  }
  return text.replace(CONTROLS, '') + (ends ? '\n' : '');
}
