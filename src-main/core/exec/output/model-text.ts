// Turns terminal text into what a person would read off the screen, for the model: escape sequences
// removed, CRLF made LF, and a carriage return without a newline (progress bars) overwriting the line
// instead of piling up every frame. Works on a stream: sequences and CRLF may straddle chunks.

export interface TextSink {
  push(text: string): void;
}

/** A line longer than this is passed on in pieces, so a program that never prints a newline stays bounded. */
const MAX_PENDING_LINE = 16 * 1024;

type State = 'text' | 'esc' | 'csi' | 'osc' | 'oscEsc' | 'escIntermediate';

export class ModelText {
  private state: State = 'text';
  private line = '';
  private pendingCR = false;

  constructor(private readonly sink: TextSink) {}

  push(chunk: string): void {
    let runStart = -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.state === 'text') {
        if (c >= 0x20 && c !== 0x7f) {
          if (this.pendingCR) this.carriageReturn();
          if (runStart < 0) runStart = i;
          continue;
        }
        if (runStart >= 0) {
          this.append(chunk.slice(runStart, i));
          runStart = -1;
        }
        this.control(c);
        continue;
      }
      this.escape(c);
    }
    if (runStart >= 0) this.append(chunk.slice(runStart));
  }

  /** Passes on what is left (an unterminated last line). */
  end(): void {
    this.pendingCR = false;
    if (this.line) this.sink.push(this.line);
    this.line = '';
  }

  private control(c: number): void {
    if (c === 0x0a) {
      this.pendingCR = false;
      this.sink.push(`${this.line}\n`);
      this.line = '';
    } else if (c === 0x0d) {
      // Decide when the next character arrives: CRLF is a newline, CR + text overwrites.
      this.pendingCR = true;
    } else if (c === 0x09) {
      if (this.pendingCR) this.carriageReturn();
      this.append('\t');
    } else if (c === 0x1b) {
      this.state = 'esc';
    } else if (c === 0x08) {
      this.line = this.line.slice(0, -1);
    }
    // Other control characters (BEL, NUL…) are invisible on a terminal; drop them.
  }

  private escape(c: number): void {
    switch (this.state) {
      case 'esc':
        if (c === 0x5b) this.state = 'csi';
        else if (c === 0x5d || c === 0x50 || c === 0x5f || c === 0x5e)
          this.state = 'osc'; // OSC, DCS, APC, PM
        else if (c >= 0x20 && c <= 0x2f) this.state = 'escIntermediate';
        else this.state = 'text';
        return;
      case 'csi':
        if (c >= 0x40 && c <= 0x7e) this.state = 'text';
        return;
      case 'escIntermediate':
        if (c >= 0x30 && c <= 0x7e) this.state = 'text';
        return;
      case 'osc':
        if (c === 0x07) this.state = 'text';
        else if (c === 0x1b) this.state = 'oscEsc';
        return;
      case 'oscEsc':
        this.state = c === 0x5c ? 'text' : 'osc';
        return;
      default:
        return;
    }
  }

  private carriageReturn(): void {
    this.pendingCR = false;
    this.line = '';
  }

  private append(text: string): void {
    this.line += text;
    if (this.line.length > MAX_PENDING_LINE) {
      this.sink.push(this.line);
      this.line = '';
    }
  }
}

/** One-shot form of ModelText for short strings. */
export function plainText(terminalText: string): string {
  const out: string[] = [];
  const m = new ModelText({ push: (t) => out.push(t) });
  m.push(terminalText);
  m.end();
  return out.join('');
}
