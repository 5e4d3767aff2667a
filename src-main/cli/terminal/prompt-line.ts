import { EventEmitter } from 'node:events';
import readline, { type Key } from 'node:readline';
import type { LiveTerminal } from '../live-window';
import { PastedTexts } from './pasted-texts';
import type { InputEvent, TerminalInput } from './terminal-input';
import { ReadlineOutput } from './terminal-output';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** How a question ended: a line (pastes included when they answer), end of input (Ctrl-D), or Ctrl-C / withdrawn. */
export type Answer = { kind: 'line'; text: string } | { kind: 'eof' } | { kind: 'cancel' };

export interface Question {
  prompt: string;
  /**
   * Whether a paste is an answer. Yes for a program's input or code typed in; no for y/n questions, where
   * a paste arriving is text meant for the next message — it is kept for it, never taken as "y".
   */
  pasteAnswers?: boolean;
  /** Typed characters are not shown (API keys, passwords). */
  hidden?: boolean;
  /** Withdraws the question (the cell it was about was decided elsewhere). */
  signal?: AbortSignal;
}

interface OpenQuestion {
  question: Question;
  resolve(answer: Answer): void;
  hiddenText: string;
}

/**
 * The one line the person types on. It holds the chat line (a message for the agent) and, one at a
 * time, questions (approvals, a program's input, a key); a question takes the line and gives it back
 * afterwards with what was half typed. The agent's output is written above it: the line is erased,
 * the output written, and the line drawn again, so typing while the agent works never mixes with its
 * output. readline does the editing; it sees only keys typed for the line, never a paste.
 */
export class PromptLine extends EventEmitter<{ submit: [text: string]; interrupt: []; eof: []; hangup: []; 'paste-kept': [] }> {
  private readonly rl: readline.Interface;
  private readonly rlOutput: ReadlineOutput;
  private readonly pastes = new PastedTexts();
  private readonly questions: OpenQuestion[] = [];
  private chatPrompt = '> ';
  /** Whether the chat line shows with nothing typed (idle); while the agent works it shows once typed into. */
  private chatVisible = false;
  /** Whether our line is on screen now. */
  private drawn = false;
  /** Where the output left the cursor when the line is not drawn. */
  private lineStart = true;
  /** The chat line as it was when a question took the line. */
  private draft = '';
  private gone = false;
  private closed = false;
  /** The activity line ("⠋ thinking… 3 s"), shown when nothing else is written for a moment. */
  private status: { text: string; since: number } | null = null;
  private statusDrawn = false;
  private statusTimer: NodeJS.Timeout | null = null;
  private lastWrite = 0;
  private writeCount = 0;

  constructor(
    private readonly input: TerminalInput,
    private readonly out: NodeJS.WriteStream,
  ) {
    super();
    this.rlOutput = new ReadlineOutput(out);
    this.rl = readline.createInterface({
      input: input.readlineKeys as unknown as NodeJS.ReadableStream,
      output: this.rlOutput as unknown as NodeJS.WritableStream,
      terminal: true,
      historySize: 200,
      prompt: '',
    });
    this.rl.on('line', (line) => this.onLine(line));
    input.on('input', (event) => this.onInput(event));
    input.on('hangup', () => this.onHangup());
    out.on('resize', () => this.onResize());
  }

  start(): void {
    this.input.start();
  }

  /** The terminal's file descriptors (keys may come from /dev/tty while standard input is a pipe). */
  get fds(): { input: number; output: number } {
    return this.input.fds;
  }

  /** The terminal's width (code shown for approval is wrapped at it). */
  get columns(): number {
    return this.out.columns || 80;
  }

  get atLineStart(): boolean {
    return this.drawn || this.statusDrawn || this.lineStart;
  }

  /**
   * What the agent is doing, for a terminal that wants colour: shown on the line as a spinner with the
   * time it has taken, only while nothing else is written (the output itself shows progress). Null: idle.
   */
  setStatus(text: string | null): void {
    if (text === this.status?.text) return;
    this.status = text === null ? null : { text, since: Date.now() };
    if (this.status && !this.statusTimer) {
      this.statusTimer = setInterval(() => this.tickStatus(), 125);
      this.statusTimer.unref();
    } else if (!this.status) {
      this.eraseStatus();
      if (this.statusTimer) clearInterval(this.statusTimer);
      this.statusTimer = null;
    }
  }

  /** The chat line: its prompt, and whether it shows before anything is typed. */
  setChat(prompt: string, visible: boolean): void {
    this.chatPrompt = prompt;
    this.chatVisible = visible;
    if (this.questions.length > 0 || this.gone) return;
    if (this.drawn) this.erase();
    if (this.wantsLine()) this.draw();
  }

  /** The terminal, for a view redrawn in place: its size, and how many writes have left their text on it. */
  get liveTerminal(): LiveTerminal {
    return {
      size: () => ({ columns: this.out.columns || 80, rows: this.out.rows || 24 }),
      writes: () => this.writeCount,
    };
  }

  /** Writes output above the line. */
  write(text: string): void {
    if (!text || this.gone) return;
    this.writeCount++;
    this.lastWrite = Date.now();
    this.eraseStatus();
    if (this.drawn) this.erase();
    this.out.write(text);
    this.lineStart = text.endsWith('\n');
    if (this.lineStart && this.wantsLine()) this.draw();
  }

  /** Erases the half line of output the cursor is on (a program's prompt a question repeats). */
  clearOutputLine(): void {
    if (this.gone || this.drawn || this.lineStart) return;
    this.out.write('\r\x1b[2K');
    this.lineStart = true;
  }

  /** A whole line of output (a note, a notice), on a line of its own. */
  line(text: string): void {
    this.write(`${this.atLineStart ? '' : '\n'}${text}\n`);
  }

  /** Asks one question on the line; questions asked together are asked one after another. */
  ask(question: Question): Promise<Answer> {
    if (this.gone || this.closed) return Promise.resolve({ kind: 'eof' });
    return new Promise((resolve) => {
      const open: OpenQuestion = { question, resolve, hiddenText: '' };
      this.questions.push(open);
      question.signal?.addEventListener('abort', () => this.finish(open, { kind: 'cancel' }), { once: true });
      if (this.questions.length === 1) this.openQuestion();
    });
  }

  /** Gives the terminal to another program (an editor, a shell command) until resume(). */
  suspend(): void {
    if (this.drawn) this.erase();
    this.input.suspend();
  }

  resume(): void {
    this.input.resume();
    if (this.wantsLine()) this.draw();
  }

  /** Takes the line off the screen (so the shell's prompt starts clean) and gives the terminal back. */
  close(): void {
    if (this.closed) return;
    this.setStatus(null);
    this.closed = true;
    if (this.drawn) this.erase();
    else if (!this.lineStart && !this.gone) this.out.write('\n');
    for (const open of this.questions.splice(0)) open.resolve({ kind: 'eof' });
    this.rl.close();
    this.input.stop();
  }

  private onInput(event: InputEvent): void {
    if (this.closed || this.gone) return;
    const open = this.questions[0];
    if (event.kind === 'paste') return this.onPaste(event.text, open);
    const { text, key } = event;
    if (open?.question.hidden) return this.hiddenKey(open, text, key);
    if (key.ctrl && key.name === 'c') return this.interrupt(open);
    if (key.ctrl && key.name === 'd' && this.rl.line === '') {
      if (open) return this.finish(open, { kind: 'eof' });
      return void this.emit('eof');
    }
    if (!this.drawn) this.draw();
    this.input.readlineKeys.give(text, key);
  }

  private onPaste(text: string, open: OpenQuestion | undefined): void {
    if (open?.question.hidden) {
      open.hiddenText += text.replace(/\r?\n/g, '');
      return;
    }
    if (open && !open.question.pasteAnswers) {
      // Not an answer to "Run this code?": kept for the next message.
      this.draft += this.pastes.keep(text);
      this.emit('paste-kept');
      return;
    }
    if (open && text.includes('\n')) {
      const typed = this.rl.line;
      this.clearLine();
      this.writeCount++;
      this.out.write(`${this.promptFor(open)}${typed}${text}\n`);
      this.lineStart = true;
      return this.finish(open, { kind: 'line', text: typed + text });
    }
    if (!this.drawn) this.draw();
    this.rl.write(open ? text : this.pastes.keep(text));
  }

  private hiddenKey(open: OpenQuestion, text: string, key: Key): void {
    if (key.ctrl && key.name === 'c') return this.finish(open, { kind: 'cancel' });
    if (key.ctrl && key.name === 'd' && open.hiddenText === '') return this.finish(open, { kind: 'eof' });
    if (key.name === 'return' || key.name === 'enter') {
      this.writeCount++;
      this.out.write('\n');
      this.drawn = false;
      this.lineStart = true;
      return this.finish(open, { kind: 'line', text: open.hiddenText });
    }
    if (key.name === 'backspace') open.hiddenText = open.hiddenText.slice(0, -1);
    else if (key.ctrl && key.name === 'u') open.hiddenText = '';
    else if (!key.ctrl && !key.meta && text && !text.startsWith('\x1b')) open.hiddenText += text;
  }

  private interrupt(open: OpenQuestion | undefined): void {
    if (open) return this.finish(open, { kind: 'cancel' });
    if (this.rl.line !== '') {
      // The whole line goes, wherever the cursor is (readline's Ctrl-U keeps what is right of it).
      this.clearLine();
      if (this.wantsLine()) this.draw();
      return;
    }
    this.emit('interrupt');
  }

  private onLine(line: string): void {
    this.drawn = false;
    this.lineStart = true;
    const open = this.questions[0];
    if (open) {
      // Answers are not messages: keep them out of the history Up recalls.
      const history = (this.rl as unknown as { history: string[] }).history;
      if (history[0] === line) history.shift();
      return this.finish(open, { kind: 'line', text: line });
    }
    const text = this.pastes.expand(line);
    this.emit('submit', text);
    if (this.wantsLine() && !this.drawn) this.draw();
  }

  /**
   * The terminal has reflowed our line to its new width (as terminals do: xterm.js, VTE, kitty, tmux…),
   * the cursor where the line's text put it: erase counts the rows at the new width, and draw repaints
   * the line once from its start. Output written while the line is off screen is the terminal's to reflow.
   */
  private onResize(): void {
    if (!this.drawn || this.gone || this.closed) return;
    this.erase();
    this.draw();
  }

  private onHangup(): void {
    this.gone = true;
    this.setStatus(null);
    this.drawn = false;
    for (const open of this.questions.splice(0)) open.resolve({ kind: 'eof' });
    this.emit('hangup');
  }

  private openQuestion(): void {
    const open = this.questions[0];
    if (!open) return;
    // What was typed for the next message waits; the question gets an empty line.
    this.draft += this.rl.line;
    this.clearLine();
    this.draw();
  }

  private finish(open: OpenQuestion, answer: Answer): void {
    const at = this.questions.indexOf(open);
    if (at < 0) return;
    this.questions.splice(at, 1);
    if (at === 0) {
      if (answer.kind !== 'line') {
        // Withdrawn or cancelled: the question's line goes, with anything half typed on it.
        this.clearLine();
        if (answer.kind === 'cancel' && !this.gone) this.line('^C');
      }
      open.resolve(answer);
      if (this.questions.length > 0) this.openQuestion();
      else this.restoreChat();
      return;
    }
    open.resolve(answer);
  }

  private restoreChat(): void {
    if (this.gone || this.closed) return;
    if (this.draft) {
      const draft = this.draft;
      this.draft = '';
      this.quietly(() => this.rl.write(draft));
    }
    if (this.wantsLine() && !this.drawn) this.draw();
  }

  private wantsLine(): boolean {
    return !this.gone && !this.closed && (this.questions.length > 0 || this.chatVisible || this.rl.line !== '');
  }

  private promptFor(open: OpenQuestion | undefined): string {
    return open ? open.question.prompt : this.chatPrompt;
  }

  private draw(): void {
    if (this.gone || this.closed) return;
    this.eraseStatus();
    // Never on the same line as half a line of output: a line that was cut short is left cut.
    if (!this.lineStart) this.out.write('\n');
    this.lineStart = true;
    this.rl.setPrompt(this.promptFor(this.questions[0]));
    // readline repaints from the row it last left the cursor on; we start it on a fresh line.
    (this.rl as unknown as { prevRows: number }).prevRows = 0;
    this.rl.prompt(true);
    this.drawn = true;
  }

  /** Clears our line from the screen; the cursor ends where the line began. */
  private erase(): void {
    if (!this.drawn) return;
    const rows = this.rl.getCursorPos().rows;
    readline.cursorTo(this.out, 0);
    if (rows > 0) readline.moveCursor(this.out, 0, -rows);
    readline.clearScreenDown(this.out);
    this.drawn = false;
    this.lineStart = true;
  }

  private tickStatus(): void {
    const status = this.status;
    if (!status || this.gone || this.closed || this.drawn || this.wantsLine() || !this.lineStart) return;
    // Output is flowing: it is its own sign of life.
    if (Date.now() - this.lastWrite < 400) return;
    const seconds = Math.floor((Date.now() - status.since) / 1000);
    const frame = SPINNER[Math.floor(Date.now() / 125) % SPINNER.length];
    readline.cursorTo(this.out, 0);
    readline.clearLine(this.out, 0);
    this.out.write(`\x1b[2m${frame} ${status.text}…${seconds > 0 ? ` ${seconds} s` : ''}\x1b[22m`);
    this.statusDrawn = true;
  }

  private eraseStatus(): void {
    if (!this.statusDrawn) return;
    this.statusDrawn = false;
    if (this.gone) return;
    readline.cursorTo(this.out, 0);
    readline.clearLine(this.out, 0);
  }

  /** Empties the line, on screen first (its height is known only while it still holds the text). */
  private clearLine(): void {
    if (this.drawn) this.erase();
    if (this.rl.line === '') return;
    this.quietly(() => {
      this.rl.write(null, { ctrl: true, name: 'e' });
      this.rl.write(null, { ctrl: true, name: 'u' });
    });
  }

  /** Changes readline's line without it repainting (we repaint when the line is ours to show). */
  private quietly(change: () => void): void {
    this.rlOutput.muted = true;
    try {
      change();
    } finally {
      this.rlOutput.muted = false;
    }
  }
}
