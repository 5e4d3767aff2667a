/**
 * What a cell's program prints around an input question that the person already sees on the
 * question's own line: the program's prompt (the runner writes it before it asks) and the echo of
 * the answer (the runner writes the line typed, or a bare newline after a password, as a terminal
 * would). The interactive `oi` shows both on the question line, so without this filter they came
 * twice (issue 25, item 8: "a program's input prompt shows twice and the answer is echoed twice").
 *
 * Only an exact match is dropped, in order; output that differs is shown as it came, including any
 * part held while it still looked like a match. The terminal turns "\n" into "\r\n": both match.
 */
export class InputEcho {
  private readonly expected = new Map<string, string[]>();
  /** Per cell: how far into the first expected text the output has matched, and what it held back. */
  private readonly held = new Map<string, { matched: number; text: string }>();

  /** The program is about to print (or has just printed) `text`, already on the person's screen. */
  expect(cellId: string, text: string): void {
    if (!text) return;
    const queue = this.expected.get(cellId) ?? [];
    queue.push(text);
    this.expected.set(cellId, queue);
  }

  /** The cell's output with the expected texts taken out. */
  filter(cellId: string, data: string): string {
    const queue = this.expected.get(cellId);
    if (!queue?.length) return data;
    let rest = data;
    while (rest && queue.length) {
      const want = queue[0] as string;
      const state = this.held.get(cellId) ?? { matched: 0, text: '' };
      let i = 0;
      let matched = state.matched;
      while (i < rest.length && matched < want.length) {
        const c = rest[i];
        if (c === want[matched]) matched++;
        else if (!(c === '\r' && want[matched] === '\n')) break;
        i++;
      }
      if (matched === want.length) {
        // All of it came: dropped. What follows is looked at against the next expected text.
        queue.shift();
        this.held.delete(cellId);
        rest = rest.slice(i);
        continue;
      }
      if (i === rest.length) {
        // Still a match so far: hold it until the rest comes (or the cell ends: release()).
        this.held.set(cellId, { matched, text: state.text + rest });
        return '';
      }
      // Not what was expected: nothing is dropped. The held part and the rest are looked at again
      // from their start, against the next expected text.
      queue.shift();
      this.held.delete(cellId);
      rest = state.text + rest;
    }
    if (!queue.length) this.expected.delete(cellId);
    return rest;
  }

  /** The cell ended: whatever was held back because it looked like an echo is shown after all. */
  release(cellId: string): string {
    const held = this.held.get(cellId)?.text ?? '';
    this.held.delete(cellId);
    this.expected.delete(cellId);
    return held;
  }
}
