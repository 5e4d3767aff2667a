import type { TextSink } from './model-text';

// The model reads a run as one text: terminal lines with a line per rich output where it was shown.
// A runner's position marker can arrive before its output (the terminal and the side channel race),
// so the output's line is not known yet while the text after it already flows. That text waits here
// behind a hole until the output arrives; when too much has piled up it goes on without waiting, and
// an output that comes later is read where it arrives.

/** How much text may wait behind outputs that have not arrived yet. */
const MAX_HELD_CHARS = 1 << 20;

interface Hole {
  id: number;
  text: string | null;
}

export class ModelOrder implements TextSink {
  /** Text (consecutive pushes joined) and holes, in order; empty when nothing waits. */
  private queue: Array<string | Hole> = [];
  private held = 0;
  private readonly open = new Map<number, Hole>();
  /** Holes given up on: their text goes wherever it arrives. */
  private readonly late = new Set<number>();

  constructor(
    private readonly sink: TextSink,
    private readonly maxHeld = MAX_HELD_CHARS,
  ) {}

  push(text: string): void {
    if (!text) return;
    if (this.queue.length === 0) {
      this.sink.push(text);
      return;
    }
    const last = this.queue.length - 1;
    const tail = this.queue[last];
    if (typeof tail === 'string') this.queue[last] = tail + text;
    else this.queue.push(text);
    this.held += text.length;
    if (this.held > this.maxHeld) this.release();
  }

  /** Reserves the place of output `id` here. */
  hole(id: number): void {
    const hole: Hole = { id, text: null };
    this.open.set(id, hole);
    this.queue.push(hole);
  }

  /** The text of output `id`: into its hole, or (given up on) where things are now. */
  fill(id: number, text: string): void {
    const hole = this.open.get(id);
    if (!hole) {
      if (this.late.delete(id)) this.push(text);
      return;
    }
    this.open.delete(id);
    hole.text = text;
    this.drain();
  }

  /** Stops waiting: what is held goes on, holes not filled yet are skipped. */
  release(): void {
    for (const item of this.queue) {
      if (typeof item === 'string') this.sink.push(item);
      else if (item.text !== null) this.sink.push(item.text);
      else this.late.add(item.id);
    }
    this.queue = [];
    this.held = 0;
    this.open.clear();
  }

  private drain(): void {
    let i = 0;
    for (; i < this.queue.length; i++) {
      const item = this.queue[i]!;
      if (typeof item === 'string') {
        this.sink.push(item);
        this.held -= item.length;
      } else if (item.text !== null) {
        this.sink.push(item.text);
      } else break;
    }
    if (i > 0) this.queue.splice(0, i);
  }
}
