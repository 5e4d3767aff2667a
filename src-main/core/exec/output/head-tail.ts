// Keeps the beginning and the end of a long text in bounded memory. The model needs both: the head
// says what started, the tail holds the error or the result. The middle is only counted.

export class HeadTail {
  private head = '';
  private tailParts: string[] = [];
  private tailLength = 0;
  private total = 0;
  private totalLines = 0;

  constructor(
    private readonly headChars: number,
    private readonly tailChars: number,
  ) {}

  push(text: string): void {
    if (!text) return;
    this.total += text.length;
    this.totalLines += countNewlines(text);
    let rest = text;
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
      if (!rest) return;
    }
    this.tailParts.push(rest);
    this.tailLength += rest.length;
    // Compact only when the tail doubles so each character is copied a bounded number of times.
    if (this.tailLength > this.tailChars * 2) this.compact();
  }

  get totalChars(): number {
    return this.total;
  }

  /** Head, then a line saying what was left out, then tail. */
  render(): string {
    this.compact();
    const tail = this.tailParts.join('');
    const elided = this.total - this.head.length - tail.length;
    if (elided <= 0) return this.head + tail;
    const elidedLines = this.totalLines - countNewlines(this.head) - countNewlines(tail);
    const lines = elidedLines > 0 ? ` (${elidedLines.toLocaleString('en-US')} lines)` : '';
    const before = this.head.endsWith('\n') ? '' : '\n';
    const after = tail.startsWith('\n') ? '' : '\n';
    return `${this.head}${before}… ${elided.toLocaleString('en-US')} characters${lines} elided …${after}${tail}`;
  }

  private compact(): void {
    if (this.tailLength <= this.tailChars && this.tailParts.length <= 1) return;
    let tail = this.tailParts.join('');
    if (tail.length > this.tailChars) tail = tail.slice(tail.length - this.tailChars);
    this.tailParts = tail ? [tail] : [];
    this.tailLength = tail.length;
  }
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Splits a character budget: the end of an output matters more (errors, results) than its start. */
export function splitBudget(chars: number): { head: number; tail: number } {
  const head = Math.floor(chars * 0.4);
  return { head, tail: chars - head };
}
