import type { CellOutput } from '@contract';

/** The engine's note between the head and the tail of a run past its cap (output-cap.ts `finish`). */
const CAP_NOTE = /^\n… [^\n]* more, saved to [^\n]*\n$/;

/**
 * The last `n` lines of a run's text output (stdout and stderr, in order), read from the end of its
 * saved outputs: past the engine's cap those end with the output's real tail (docs/exec.md#huge-output).
 * Only as much as the lines need is joined; the head before the cap note is never reached into.
 */
export function lastStreamLines(outputs: readonly CellOutput[], n: number): string[] {
  const pieces: string[] = [];
  // A final newline ends the last line rather than starting another: n lines need n + 1 newlines before them.
  let wanted = n + 1;
  for (let i = outputs.length - 1; i >= 0 && wanted > 0; i--) {
    const output = outputs[i];
    if (output?.output_type !== 'stream') continue;
    if (CAP_NOTE.test(output.text)) break;
    let from = output.text.length;
    while (wanted > 0 && from > 0) {
      const at = output.text.lastIndexOf('\n', from - 1);
      if (at < 0) break;
      from = at;
      wanted--;
    }
    pieces.unshift(wanted === 0 ? output.text.slice(from + 1) : output.text);
  }
  const lines = pieces.join('').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(-n);
}
