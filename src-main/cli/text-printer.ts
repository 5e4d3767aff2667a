import { COMPUTER_LANGUAGE } from '../core/llm/computer-tool';
import path from 'node:path';
import { isDelegateCell, mcpUiOf, PLAN_LANGUAGE, skillUseText, type AnyEvent, type CellItem, type CellOutput } from '@contract';
import { isScheduleCell, scheduleCellDone, scheduleLines } from './schedule-question';
import { isPlanCell, planCellDone, planLines, planModeLine, taskListLines } from './plan-lines';
import { saveRichOutput } from './rich-output-file';
import { InputEcho } from './input-echo';
import { forTerminal } from './terminal-places';
import { lastStreamLines } from './last-lines';
import type { LiveTerminal } from './live-window';
import { CellScreen, SCREEN_LIMITS, type ScreenLimits } from './screen-output';
import { RowWrapper } from './terminal/wrap-rows';
import type { Style } from './terminal-style';

/** Where the printer's text goes, and whether the cursor is at the start of a line there. */
export interface PrinterSink {
  write(text: string): void;
  /** Omitted: the printer keeps count from what it wrote. */
  atLineStart?(): boolean;
  /** The terminal's width, when the sink is one: code is wrapped at it, each wrapped row marked. Omitted: not wrapped. */
  columns?(): number;
  /** Erases the line the cursor is on (a terminal); the cursor is then at a line's start. */
  clearLine?(): void;
}

export interface PrinterOptions {
  /** Error lines (failed calls, error notices) go here — stderr when stdout is for the answer. Default: the main sink. */
  errors?: PrinterSink | undefined;
  errorStyle?: Style;
  /** Folder for what does not fit the screen: full logs of long outputs, images (<dir>/<conversation>/…). Null: not saved. */
  outputDir?: string | null;
  limits?: ScreenLimits;
  /** The terminal the sink writes to, when a run's latest lines can be redrawn on it. */
  live?: LiveTerminal | null;
  /** Whether `%traceback` can be typed after this turn (the chat; not a one-shot run). Default: yes. */
  tracebackHint?: boolean;
  /** The conversation's folder, against which a run's full-output file is named. */
  workspace?: () => string | null;
}

/** Code blocks are framed by rules of one width: the header's padded out to it, the closing one as long. */
const RULE_WIDTH = 48;

/**
 * Turns the app's events into terminal text: the model's words as they stream, code as it is written,
 * the run's own terminal output (bounded: head, then a count, then the tail with the full log's path),
 * images saved to files, and a line for anything that did not simply succeed. Without colour (a file,
 * a pipe, NO_COLOR) the run's output is reduced to plain text: no escape codes, no CR.
 */
export class TextPrinter {
  private wroteLineEnd = true;
  private readonly sink: PrinterSink;
  private readonly errors: PrinterSink;
  private readonly errorStyle: Style;
  /** Code already printed per cell, so streamed code is written once, growing. */
  private readonly printed = new Map<string, string>();
  private readonly closed = new Set<string>();
  private readonly screens = new Map<string, CellScreen>();
  /** The prompt and answer of an input question, shown on the question's line, kept out of the output. */
  readonly inputEcho = new InputEcho();
  private readonly saved = new Map<string, number>();
  /** The thinking block being printed ("item:block"), dimmed, until the answer or code begins. */
  private thinking: string | null = null;
  /** Error lines shown for cells (ename: evalue), so a question quoting one need not repeat it. */
  private readonly errorLines = new Set<string>();
  /** Code as it streams in, broken at the terminal's width with a mark on each row a line wraps onto. */
  private readonly codeRows: RowWrapper;

  constructor(
    sink: PrinterSink | ((text: string) => void),
    private readonly style: Style,
    private readonly options: PrinterOptions = {},
  ) {
    this.sink = typeof sink === 'function' ? { write: sink } : sink;
    this.errors = options.errors ?? this.sink;
    this.errorStyle = options.errorStyle ?? style;
    this.codeRows = new RowWrapper({ text: style.cyan, mark: style.dim });
  }

  /** Whether this error line was just shown for a cell. */
  shownError(line: string): boolean {
    return this.errorLines.has(line.trim());
  }

  handle(event: AnyEvent): void {
    if (this.thinking && event.name !== 'assistant.thinking-delta') this.endThinking();
    switch (event.name) {
      case 'assistant.thinking-delta': {
        const key = `${event.payload.itemId}:${event.payload.block}`;
        if (this.thinking !== key) {
          this.line(this.style.dim('thinking…'));
          this.thinking = key;
        }
        this.out(this.style.dim(event.payload.text));
        break;
      }
      case 'assistant.delta':
        this.out(event.payload.text);
        break;
      case 'cell.code':
        // A skill call is not code: it is shown as one line when it is done.
        if (
          skillUseText(event.payload) === null &&
          !isPlanCell(event.payload.language) &&
          !isDelegateCell(event.payload) &&
          !isScheduleCell(event.payload.language)
        )
          this.code(event.payload.cellId, event.payload.language, event.payload.code);
        break;
      case 'cell.awaiting-approval':
        if (event.payload.cell.language === PLAN_LANGUAGE) this.line(planLines(event.payload.cell, this.style));
        else if (isScheduleCell(event.payload.cell.language)) this.line(scheduleLines(event.payload.cell, this.style));
        else this.finishCode(event.payload.cell);
        break;
      case 'tasks.updated':
        this.line(taskListLines(event.payload.tasks, this.style));
        break;
      case 'conversation.plan-mode':
        this.line(planModeLine(event.payload.planMode, this.style));
        break;
      case 'cell.running':
        if (!this.closed.has(event.payload.cellId)) {
          // Auto-run: the code block ends where the run starts.
          const code = this.printed.get(event.payload.cellId) ?? '';
          if (event.payload.code !== code) this.code(event.payload.cellId, '', event.payload.code);
          this.closeBlock(event.payload.cellId);
        }
        break;
      case 'cell.terminal': {
        const data = this.inputEcho.filter(event.payload.cellId, event.payload.data);
        if (data) this.out(this.screen(event.payload.conversationId, event.payload.cellId).push(data));
        break;
      }
      case 'cell.input-requested':
        if (event.payload.mode === 'line') this.promptTakenBack(event.payload.cellId, event.payload.prompt);
        break;
      case 'cell.output':
        this.richOutput(event.payload.conversationId, event.payload.cellId, event.payload.output);
        break;
      case 'cell.done': {
        const held = this.inputEcho.release(event.payload.cell.id);
        if (held) this.out(this.screen(event.payload.conversationId, event.payload.cell.id).push(held));
        // A computer call's screenshot, saved as a file like any image a terminal cannot show.
        if (event.payload.cell.language === COMPUTER_LANGUAGE)
          for (const output of event.payload.cell.outputs) this.richOutput(event.payload.conversationId, event.payload.cell.id, output);
        this.endScreen(event.payload.cell);
        this.cellDone(event.payload.cell);
        break;
      }
      case 'computer.action':
        // The terminal's banner: each action on the screen as it happens (Ctrl-C stops the turn).
        if (event.payload.phase === 'doing') this.line(this.errorStyle.yellow(`[computer] ${event.payload.text} (Ctrl-C stops)`));
        break;
      case 'notice': {
        const { level } = event.payload.item;
        const text = forTerminal(event.payload.item.text);
        if (level === 'info') this.line(this.style.dim(`[${level}] ${text}`));
        else this.errorLine((level === 'error' ? this.errorStyle.red : this.errorStyle.yellow)(`[${level}] ${text}`));
        break;
      }
      case 'error':
        this.errorLine(this.errorStyle.red(`error: ${forTerminal(event.payload.message)}`));
        break;
      default:
        break;
    }
  }

  private endThinking(): void {
    this.thinking = null;
    this.newline();
    this.out('\n');
  }

  /** Ends the current line if something is on it (before a prompt). */
  newline(): void {
    if (!this.atLineStart()) this.out('\n');
  }

  private atLineStart(): boolean {
    return this.sink.atLineStart ? this.sink.atLineStart() : this.wroteLineEnd;
  }

  line(text: string): void {
    this.newline();
    this.out(`${text}\n`);
  }

  private errorLine(text: string): void {
    if (this.errors === this.sink) return this.line(text);
    this.newline();
    this.errors.write(`${text}\n`);
  }

  /** The question's line shows the program's prompt: its own copy, printed or still to come, is not shown. */
  private promptTakenBack(cellId: string, prompt: string): void {
    const taken = this.screens.get(cellId)?.takeBack(prompt) ?? 'absent';
    if (taken === 'erase' && this.sink.clearLine) this.sink.clearLine();
    else if (taken === 'absent') this.inputEcho.expect(cellId, prompt);
  }

  private out(text: string): void {
    if (!text) return;
    this.sink.write(text);
    this.wroteLineEnd = text.endsWith('\n');
  }

  private screen(conversationId: string, cellId: string): CellScreen {
    let screen = this.screens.get(cellId);
    if (!screen) {
      const log = this.options.outputDir
        ? path.join(this.options.outputDir, conversationId, `${cellId}.log`)
        : path.join('(not saved)', `${cellId}.log`);
      screen = new CellScreen(!this.style.colour, log, this.options.limits ?? SCREEN_LIMITS, this.options.live ?? null);
      this.screens.set(cellId, screen);
    }
    return screen;
  }

  private endScreen(cell: CellItem): void {
    const screen = this.screens.get(cell.id);
    if (!screen) return;
    this.screens.delete(cell.id);
    // Past the engine's cap the live output stopped at the cap: the real tail is the saved outputs' end.
    const full = cell.fullOutput
      ? {
          ...cell.fullOutput,
          path: path.resolve(this.options.workspace?.() ?? '', cell.fullOutput.path),
          lastLines: lastStreamLines(cell.outputs, (this.options.limits ?? SCREEN_LIMITS).tailLines),
        }
      : null;
    const { erase, rest, note, tail } = screen.finish(full);
    if (erase) {
      // One write: the erase leaves the cursor at a line's start, which the sink cannot know.
      const noteLine = note ? `${rest === '' || rest.endsWith('\n') ? '' : '\n'}${this.style.dim(note)}\n` : '';
      this.out(erase + rest + noteLine + tail);
      return;
    }
    this.out(rest);
    if (note) this.line(this.style.dim(note));
    this.out(tail);
  }

  private code(cellId: string, language: string, code: string): void {
    const before = this.printed.get(cellId);
    // The language is written before the code: wait for code so the header names the whole language.
    if (before === undefined && code === '') return;
    if (before === undefined) {
      this.line(this.style.cyan(rule(`── ${language || 'code'} `)));
      this.printed.set(cellId, '');
    }
    const shown = this.printed.get(cellId) ?? '';
    if (code.startsWith(shown)) {
      this.outCode(code.slice(shown.length));
    } else {
      // The code changed under what was shown (an edit): show it whole again.
      this.line(this.style.cyan(rule(`── ${language || 'code'} (as it will run) `)));
      this.outCode(code);
    }
    this.printed.set(cellId, code);
  }

  private outCode(code: string): void {
    this.out(this.codeRows.wrap(code, this.sink.columns?.() ?? null, this.atLineStart()));
  }

  private finishCode(cell: CellItem): void {
    const shown = this.printed.get(cell.id);
    if (shown === undefined || cell.code !== shown) this.code(cell.id, cell.language, cell.code);
    this.closeBlock(cell.id);
  }

  private closeBlock(cellId: string): void {
    this.closed.add(cellId);
    this.line(this.style.cyan(rule('')));
  }

  private richOutput(conversationId: string, cellId: string, output: CellOutput): void {
    if (output.output_type === 'stream') return;
    this.out(this.screens.get(cellId)?.endHeldLine() ?? '');
    if (output.output_type === 'error') {
      const line = `${output.ename}: ${output.evalue}`.trim();
      this.errorLines.add(line);
      const hint = output.traceback.length > 1 && this.options.tracebackHint !== false;
      const more = hint ? this.style.dim('  (%traceback shows the whole traceback)') : '';
      this.line(this.style.red(line) + more);
      return;
    }
    const plain = output.data['text/plain'];
    // An MCP server's UI is not saved as a page to open: a browser would run it from a file with none
    // of the output frame's isolation. The desktop app shows it.
    if (mcpUiOf(output)) {
      this.line(
        this.style.dim(`${typeof plain === 'string' ? plain : '[interactive UI]'} (open the conversation in the desktop app to see it)`),
      );
      return;
    }
    const n = (this.saved.get(cellId) ?? 0) + 1;
    this.saved.set(cellId, n);
    const file = this.options.outputDir
      ? saveRichOutput(output.data, path.join(this.options.outputDir, conversationId), `${cellId}-${n}`)
      : null;
    if (file) this.line(this.style.dim(`[${file.kind} saved to ${file.path}]`));
    else {
      const kinds = Object.keys(output.data).filter((k) => k !== 'text/plain');
      if (kinds.length && typeof plain !== 'string')
        this.line(this.style.dim(`[${kinds.join(', ')} output: open the conversation in the desktop app to see it]`));
    }
    if (typeof plain === 'string' && (output.output_type === 'execute_result' || !file)) this.line(plain);
  }

  private cellDone(cell: CellItem): void {
    // A sub-agent's end is printed from its own events (subagent-output.ts).
    if (cell.subagent) return;
    if (isScheduleCell(cell.language)) return this.line(scheduleCellDone(cell, this.style));
    if (isPlanCell(cell.language)) {
      const line = planCellDone(cell, this.style);
      if (line !== null) this.line(line);
      return;
    }
    const skillUse = skillUseText(cell);
    if (skillUse !== null) {
      // The model's error (no such skill, a path outside it) is what the person needs to see too.
      if (cell.status === 'done') this.line(this.style.dim(`⚙ ${skillUse}`));
      else this.line(this.style.yellow(`⚙ ${skillUse}: ${cell.resultForModel ?? cell.status}`));
      return;
    }
    if (!this.printed.has(cell.id) && cell.status === 'failed' && cell.resultForModel?.startsWith('Error:')) {
      // A tool call the app could not read: the model is told; the user sees why nothing ran.
      this.line(this.style.yellow(`[not run] ${cell.resultForModel}`));
      return;
    }
    switch (cell.status) {
      case 'done':
        this.line(this.style.dim(`✓ done${cell.durationMs !== null ? ` in ${(cell.durationMs / 1000).toFixed(1)} s` : ''}`));
        break;
      case 'skipped':
        this.line(this.style.dim('↷ not run'));
        break;
      case 'failed':
        this.line(this.style.red(`✗ failed${cell.exitCode !== null ? ` (exit code ${cell.exitCode})` : ''}`));
        break;
      default:
        this.line(this.style.yellow(`✗ ${cell.status}`));
    }
  }
}

/** A rule RULE_WIDTH characters wide, starting with a title. */
function rule(title: string): string {
  return title + '─'.repeat(Math.max(3, RULE_WIDTH - title.length));
}
