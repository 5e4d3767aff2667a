import type { CellOutput, DisplayUpdate, ExecSettings } from '@contract';
import { HeadTail, splitBudget } from './head-tail';
import { ModelOrder } from './model-order';
import { ModelText, plainText } from './model-text';
import { OutputBatcher } from './output-batcher';
import { OutputCap, prefixWithinBytes } from './output-cap';
import { deepRedactValue, redactOutput, SecretRedactor, type KnownSecret } from './redactor';

// Everything one run produces goes through here: terminal text to the UI (batched, capped, spilled
// past the cap) and to the model's head + tail; rich outputs from a side channel in between.
//
// Where a rich output goes relative to the text: runners speaking protocol 2 write a position marker
// into the terminal stream and number the output with it (docs/exec-protocol.md), so each output is
// put exactly at its marker, whichever of the two arrives first. Outputs without a number (remote
// kernels, older runners) are placed where the text has got to a moment after they arrive.

export interface RunOutputOptions {
  settings: Pick<ExecSettings, 'outputCapBytes' | 'modelOutputChars'>;
  spillPath: string;
  /** The folder the spill file lies in (the workspace): no link below it is followed. */
  spillRoot: string;
  onTerminal?: (text: string) => void;
  onOutput?: (output: CellOutput) => void;
  /** An update of displays by id, after it was applied to this run's outputs. */
  onDisplayUpdate?: (update: DisplayUpdate) => void;
  /** The spill file cannot keep up: pause the producer (true) or resume it (false). */
  onBackpressure: (paused: boolean) => void;
  /** Keys the app holds: replaced wherever they appear, before anything is shown, saved or sent (redactor.ts). */
  secrets?: readonly KnownSecret[];
}

export interface FinishedOutput {
  outputs: CellOutput[];
  /** Head + tail of the run's text, escape sequences removed; no status line. */
  modelText: string;
  /** The "… N MB more, saved to …" note, when output was cut. */
  capNote: string | null;
  /** The whole output's size and lines when it passed the cap and all of it is in the spill file, else null. */
  spilled: { bytes: number; lines: number } | null;
}

/** How long a rich output waits for terminal text that was printed before it but is still in flight. */
const RICH_PLACEMENT_DELAY_MS = 5;

const BARE_LF = /(?<!\r)\n/g;

/** Characters of recent text kept for trailingLine(). */
const TAIL_CHARS = 2048;

/** Where a numbered output goes: filled when the output arrives, left out if it never does. */
interface Slot {
  kind: 'slot';
  seq: number;
  output: CellOutput | null;
}

type Part =
  { kind: 'text-split'; at: number } | { kind: 'rich'; output: CellOutput } | { kind: 'stream'; at: number; name: StreamName } | Slot;

type StreamName = 'stdout' | 'stderr';

/** How the live terminal shows text written to stderr (SGR red, and back to the default colour). */
const STDERR_ON = '\x1b[31m';
const STDERR_OFF = '\x1b[39m';

export class RunOutput {
  private readonly cap: OutputCap;
  private readonly batcher: OutputBatcher | null;
  private readonly headTail: HeadTail;
  private readonly model: ModelText;
  private readonly modelOrder: ModelOrder;
  private readonly parts: Part[] = [];
  /** Numbered outputs whose marker has come (filled or not), by number. */
  private readonly slots = new Map<number, Slot>();
  /** Numbered outputs that arrived before their marker. */
  private readonly early = new Map<number, CellOutput>();
  private keptChars = 0;
  private pendingRich: CellOutput[] = [];
  private richTimer: NodeJS.Timeout | null = null;
  private sawText = false;
  /** The end of the text so far, for the prompt of a program that waits for input. */
  private tail = '';
  /** The last update of each display id this run sent: the model reads the final values at the end. */
  private readonly updates = new Map<string, DisplayUpdate>();
  /** The stream the text now arriving belongs to. */
  private current: StreamName = 'stdout';
  private readonly redactor: SecretRedactor;

  constructor(private readonly options: RunOutputOptions) {
    this.redactor = new SecretRedactor(options.secrets ?? []);
    this.cap = new OutputCap({
      capBytes: options.settings.outputCapBytes,
      spillPath: options.spillPath,
      spillRoot: options.spillRoot,
      onBackpressure: options.onBackpressure,
    });
    this.batcher = options.onTerminal ? new OutputBatcher(options.onTerminal) : null;
    const budget = splitBudget(options.settings.modelOutputChars);
    this.headTail = new HeadTail(budget.head, budget.tail);
    this.modelOrder = new ModelOrder(this.headTail);
    this.model = new ModelText(this.modelOrder);
  }

  /**
   * Set by sessions whose pty does no output processing (runners run with `stty -opost`, which makes
   * the kernel's pty path much faster): a bare LF then needs its CR for the terminal view.
   */
  bareNewlines = false;

  terminal(text: string): void {
    if (!text) return;
    this.sawText = true;
    this.accept(this.redactor.push(text));
  }

  /** Text held back by the redactor (a possible start of a key) goes on before anything placed after it. */
  private release(): void {
    this.accept(this.redactor.flush());
  }

  private accept(text: string): void {
    if (!text) return;
    this.tail = text.length >= TAIL_CHARS ? text.slice(-TAIL_CHARS) : (this.tail + text).slice(-TAIL_CHARS);
    const visible = this.cap.push(text, this.current);
    if (visible) {
      this.keptChars += visible.length;
      const shown = this.bareNewlines ? visible.replace(BARE_LF, '\r\n') : visible;
      this.batcher?.push(this.current === 'stderr' ? `${STDERR_ON}${shown}${STDERR_OFF}` : shown);
    }
    this.model.push(text);
  }

  /**
   * A rich output from the side channel. With a sequence number, it goes exactly where the marker
   * with that number is in the terminal text: now if the marker has come, else when it does.
   * Without one (a repeated number counts as none) the runner flushed the text printed before it to
   * the terminal first, but the two paths race: that text may still be unread in the pty while the
   * message is already here, so the output is placed a moment later, after that text (best effort).
   */
  rich(given: CellOutput, seq?: number): void {
    const output = redactOutput(given, this.redactor);
    if (seq !== undefined && !this.early.has(seq)) {
      const slot = this.slots.get(seq);
      if (!slot) {
        this.early.set(seq, output);
        return;
      }
      if (!slot.output) {
        this.fill(slot, output);
        return;
      }
    }
    this.pendingRich.push(output);
    if (!this.richTimer) this.richTimer = setTimeout(() => this.placeRich(), RICH_PLACEMENT_DELAY_MS);
  }

  /**
   * Text from here on is `name`'s (a runner's stream marker, or the session telling which terminal
   * it read): kept apart in the outputs, shown in colour in the live terminal.
   */
  stream(name: StreamName): void {
    if (name === this.current) return;
    // Text the redactor holds back was written before the switch: it is the old stream's.
    this.release();
    this.current = name;
    this.parts.push({ kind: 'stream', at: this.keptChars, name });
  }

  /**
   * The position marker of output `seq`, at this point of the terminal text (the session checked
   * its nonce). A second marker with the same number is ignored.
   */
  marker(seq: number): void {
    if (this.slots.has(seq)) return;
    this.release();
    const slot: Slot = { kind: 'slot', seq, output: null };
    this.slots.set(seq, slot);
    this.parts.push({ kind: 'text-split', at: this.keptChars }, slot);
    this.model.end();
    this.modelOrder.hole(seq);
    const output = this.early.get(seq);
    if (output) {
      this.early.delete(seq);
      this.fill(slot, output);
    }
  }

  private fill(slot: Slot, output: CellOutput): void {
    slot.output = output;
    this.modelOrder.fill(slot.seq, modelLine(output));
    this.announce(output);
  }

  private placeRich(): void {
    if (this.richTimer) clearTimeout(this.richTimer);
    this.richTimer = null;
    const pending = this.pendingRich;
    this.pendingRich = [];
    for (const output of pending) this.place(output);
  }

  /** Numbered outputs whose marker never came (lost with a dying runner…) go at the end. */
  private placeUnmarked(): void {
    const seqs = [...this.early.keys()].sort((a, b) => a - b);
    for (const seq of seqs) this.place(this.early.get(seq)!);
    this.early.clear();
  }

  private place(output: CellOutput): void {
    this.release();
    this.parts.push({ kind: 'text-split', at: this.keptChars }, { kind: 'rich', output });
    this.model.end();
    this.modelOrder.push(modelLine(output));
    this.announce(output);
  }

  /** Tells the live UI, after the text it has been shown so far. */
  private announce(output: CellOutput): void {
    this.batcher?.flush();
    try {
      this.options.onOutput?.(output);
    } catch {
      // The UI's trouble is not the run's.
    }
  }

  /**
   * Every display of this run with the update's id (shown, or still waiting for its place) takes the
   * new data in place, so the run's result holds the last value as a Jupyter notebook does; then the
   * caller hears of it for the displays of earlier runs and the live UI.
   */
  updateDisplay(given: DisplayUpdate): void {
    // The same redaction as every output: keys never reach the UI, the file or the model.
    const update = this.redactor.empty ? given : (deepRedactValue(given, this.redactor) as DisplayUpdate);
    const outputs = [
      ...this.parts.map((part) => (part.kind === 'rich' ? part.output : part.kind === 'slot' ? part.output : null)),
      ...this.early.values(),
      ...this.pendingRich,
    ];
    this.updates.delete(update.displayId);
    this.updates.set(update.displayId, update);
    for (const output of outputs) {
      if (output?.output_type === 'display_data' && output.displayId === update.displayId) {
        output.data = update.data;
        output.metadata = update.metadata;
      }
    }
    try {
      this.options.onDisplayUpdate?.(update);
    } catch {
      // The UI's trouble is not the run's.
    }
  }

  /** Sends the UI the text batched so far (before a question about it is shown). */
  flushTerminal(): void {
    this.batcher?.flush();
  }

  /** The last line of text so far as a person reads it (no escape sequences), '' after a newline. */
  trailingLine(): string {
    const text = plainText(this.tail);
    return text.slice(text.lastIndexOf('\n') + 1);
  }

  get hasText(): boolean {
    return this.sawText;
  }

  get totalBytes(): number {
    return this.cap.bytes;
  }

  async finish(): Promise<FinishedOutput> {
    this.release();
    this.placeRich();
    this.placeUnmarked();
    // The model read each display as first shown; it also reads where updates left it (one line a display).
    for (const { data, metadata } of this.updates.values()) {
      this.modelOrder.push(`[display updated] ${modelLine({ output_type: 'display_data', data, metadata })}`);
    }
    this.model.end();
    // Markers whose output never came are left out.
    this.modelOrder.release();
    this.batcher?.flush();
    const capNote = await this.cap.finish();
    if (capNote) {
      try {
        this.options.onTerminal?.(`\r\n${capNote}\r\n`);
      } catch {
        // as above
      }
    }
    const outputs = this.assemble(capNote);
    let modelText = this.headTail.render();
    if (capNote) modelText += `${modelText.endsWith('\n') || !modelText ? '' : '\n'}${capNote}\n`;
    return {
      outputs,
      modelText,
      capNote,
      spilled: capNote && this.cap.saved ? { bytes: this.cap.fileBytes, lines: this.cap.lines } : null,
    };
  }

  private assemble(capNote: string | null): CellOutput[] {
    // Past the cap the UI keeps the head (the first half of the cap) and the tail (the last half).
    const text = capNote ? prefixWithinBytes(this.cap.text, this.cap.headBytes) : this.cap.text;
    const outputs: CellOutput[] = [];
    let from = 0;
    let name: StreamName = 'stdout';
    const pushText = (until: number): void => {
      const to = Math.min(until, text.length);
      if (to > from) {
        const piece = normalizeNewlines(text.slice(from, to));
        const last = outputs.at(-1);
        // Text of one stream split only by an empty output slot stays one output.
        if (last?.output_type === 'stream' && last.name === name) last.text += piece;
        else outputs.push({ output_type: 'stream', name, text: piece });
      }
      from = Math.max(from, to);
    };
    this.parts.forEach((part, i) => {
      const next = this.parts[i + 1];
      if (part.kind === 'stream') {
        pushText(part.at);
        name = part.name;
      }
      // A marker whose output never came splits nothing.
      else if (part.kind === 'text-split' && !(next?.kind === 'slot' && !next.output)) pushText(part.at);
      else if (part.kind !== 'text-split' && part.output) outputs.push(part.output);
    });
    pushText(text.length);
    if (capNote) {
      outputs.push({ output_type: 'stream', name: 'stdout', text: `\n${capNote}\n` });
      // And the end of the output (issue 12 #8: head and tail, never only a slice from the start).
      for (const piece of this.cap.tailPieces())
        outputs.push({ output_type: 'stream', name: piece.stream, text: normalizeNewlines(piece.text) });
    }
    return outputs;
  }
}

function modelLine(output: CellOutput): string {
  const text = describeForModel(output);
  return text && !text.endsWith('\n') ? `${text}\n` : text;
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r+\n/g, '\n');
}

/** What the model reads for a rich output: its text form, or a line saying what the user sees. */
export function describeForModel(output: CellOutput): string {
  switch (output.output_type) {
    case 'stream':
      return plainText(output.text);
    case 'error':
      return output.traceback.length > 0 ? plainText(output.traceback.join('\n')) : `${output.ename}: ${output.evalue}`;
    case 'execute_result':
    case 'display_data': {
      const data = output.data;
      const plain = typeof data['text/plain'] === 'string' ? data['text/plain'] : null;
      const shown = Object.keys(data).filter((mime) => mime !== 'text/plain');
      const visual = shown.filter((mime) => mime.startsWith('image/') || mime === 'text/html' || mime === 'image/svg+xml');
      const note = visual.length > 0 ? `[${visual.join(', ')} output shown to the user]` : '';
      if (plain && note) return `${plainText(plain)}\n${note}`;
      if (plain) return plainText(plain);
      if (note) return note;
      if (typeof data['text/markdown'] === 'string') return data['text/markdown'];
      return shown.length > 0 ? `[${shown.join(', ')} output]` : '';
    }
  }
}
