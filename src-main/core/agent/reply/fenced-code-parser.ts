// Models without tool calling write code as Markdown fenced blocks. This parser splits their streamed
// text into prose and runnable blocks as it arrives, so code appears in a cell while it is written.
// Only complete lines decide anything: a line is held back only while it could still be a fence.

export type FenceEvent =
  | { type: 'text'; text: string }
  | { type: 'code-start'; language: string }
  | { type: 'code'; code: string }
  | { type: 'code-end'; language: string; code: string };

type State =
  | { kind: 'text' }
  /** Inside a fenced block that is not runnable (```text, ```json): shown as prose. */
  | { kind: 'other-fence'; marker: string }
  | { kind: 'code'; marker: string; language: string; code: string };

const OPENER = /^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^`\n]*$/;

export class FencedCodeParser {
  private state: State = { kind: 'text' };
  /** The current line, when it is held back because it may be a fence. */
  private held: string | null = null;
  private atLineStart = true;

  /** @param runnable the canonical language for a fence's info string, or null when it is not code to run. */
  constructor(private readonly runnable: (info: string) => string | null) {}

  feed(chunk: string): FenceEvent[] {
    const out: FenceEvent[] = [];
    let text = '';
    const flushText = () => {
      if (text) out.push({ type: 'text', text });
      text = '';
    };
    const codeBefore = this.state.kind === 'code' ? this.state.code : null;

    for (const ch of chunk) {
      if (this.held !== null) {
        this.held += ch;
        if (ch === '\n') {
          const line = this.held.slice(0, -1);
          this.held = null;
          this.atLineStart = true;
          const next = this.transition(line);
          if (next === 'keep') {
            if (this.state.kind === 'code') this.state.code += `${line}\n`;
            else text += `${line}\n`;
          } else {
            flushText();
            out.push(...next);
          }
        } else if (!this.couldBeFence(this.held)) {
          if (this.state.kind === 'code') this.state.code += this.held;
          else text += this.held;
          this.held = null;
          this.atLineStart = false;
        }
        continue;
      }
      if (this.atLineStart && (ch === ' ' || ch === '`' || ch === '~')) {
        this.held = ch;
        continue;
      }
      if (this.state.kind === 'code') this.state.code += ch;
      else text += ch;
      this.atLineStart = ch === '\n';
    }
    flushText();
    if (this.state.kind === 'code' && this.state.code !== codeBefore && this.state.code !== '') {
      // A 'code' event after code-start in the same chunk still carries the whole code so far.
      out.push({ type: 'code', code: this.state.code });
    }
    return out;
  }

  /** The stream ended: an unclosed block is taken as complete (models often stop right at the fence). */
  finish(): FenceEvent[] {
    const out: FenceEvent[] = [];
    if (this.held !== null) {
      const rest = this.held;
      this.held = null;
      const closes = this.state.kind === 'code' && isCloser(rest, this.state.marker);
      if (this.state.kind === 'code' && !closes) this.state.code += rest;
      else if (this.state.kind !== 'code') out.push({ type: 'text', text: rest });
    }
    if (this.state.kind === 'code') {
      out.push({ type: 'code-end', language: this.state.language, code: this.state.code.replace(/\n$/, '') });
    }
    this.state = { kind: 'text' };
    return out;
  }

  /** What a complete line does: 'keep' (plain content), or the events of a fence opening or closing. */
  private transition(line: string): 'keep' | FenceEvent[] {
    const state = this.state;
    if (state.kind === 'code') {
      if (!isCloser(line, state.marker)) return 'keep';
      this.state = { kind: 'text' };
      return [{ type: 'code-end', language: state.language, code: state.code.replace(/\n$/, '') }];
    }
    if (state.kind === 'other-fence') {
      if (isCloser(line, state.marker)) this.state = { kind: 'text' };
      return 'keep';
    }
    const m = OPENER.exec(line);
    if (!m) return 'keep';
    const marker = m[1] ?? '```';
    const language = this.runnable((m[2] ?? '').toLowerCase());
    if (!language) {
      this.state = { kind: 'other-fence', marker };
      return 'keep';
    }
    this.state = { kind: 'code', marker, language, code: '' };
    return [{ type: 'code-start', language }];
  }

  private couldBeFence(partial: string): boolean {
    const marker = this.state.kind === 'text' ? null : this.state.marker;
    const m = /^ {0,3}(`+|~+)?/.exec(partial);
    const run = m?.[1] ?? '';
    const rest = partial.slice(m?.[0].length ?? 0);
    if (rest === '') return true;
    if (marker === null) return run.length >= 3 && !(run[0] === '`' && rest.includes('`'));
    // In a block only a closer matters: the fence character repeated, then nothing but spaces.
    return run.length >= marker.length && run[0] === marker[0] && /^[ \t]*$/.test(rest);
  }
}

function isCloser(line: string, marker: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!m && m[1]?.[0] === marker[0] && (m[1]?.length ?? 0) >= marker.length;
}

/** Whether a finished text holds a fenced block that `runnable` accepts. */
export function hasRunnableBlock(text: string, runnable: (info: string) => string | null): boolean {
  const parser = new FencedCodeParser(runnable);
  return [...parser.feed(text), ...parser.finish()].some((ev) => ev.type === 'code-start');
}
