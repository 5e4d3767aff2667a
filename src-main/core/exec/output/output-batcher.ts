// Coalesces terminal text before it goes to the UI. A program printing line by line can produce
// thousands of chunks a second; forwarding each one costs an IPC message and garbage, so text is
// sent at most every BATCH_INTERVAL_MS, or at once when BATCH_MAX_CHARS have piled up (a fast
// producer then costs few, large messages and memory stays bounded). Input is already decoded UTF-8
// text, so a batch never splits a character.

export const BATCH_INTERVAL_MS = 16;
export const BATCH_MAX_CHARS = 64 * 1024;

export class OutputBatcher {
  private parts: string[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sink: (text: string) => void,
    private readonly intervalMs = BATCH_INTERVAL_MS,
    private readonly maxChars = BATCH_MAX_CHARS,
  ) {}

  push(text: string): void {
    if (!text) return;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= this.maxChars) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.size === 0) return;
    const text = this.parts.length === 1 ? (this.parts[0] ?? '') : this.parts.join('');
    this.parts = [];
    this.size = 0;
    try {
      this.sink(text);
    } catch {
      // A failing UI callback must not break the run that feeds it.
    }
  }
}
