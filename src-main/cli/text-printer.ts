import type { AnyEvent, CellItem } from '@contract';
import type { Style } from './terminal-style';

const RULE = '─'.repeat(40);
const CLOSE_RULE = '─'.repeat(46);

/**
 * Turns the app's events into terminal text: the model's words as they stream, code as it is written,
 * the run's own terminal output, and a line for anything that did not simply succeed.
 */
export class TextPrinter {
  private atLineStart = true;
  /** Code already printed per cell, so streamed code is written once, growing. */
  private readonly printed = new Map<string, string>();
  private readonly closed = new Set<string>();
  /** The thinking block being printed ("item:block"), dimmed, until the answer or code begins. */
  private thinking: string | null = null;

  constructor(
    private readonly write: (text: string) => void,
    private readonly style: Style,
  ) {}

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
        this.code(event.payload.cellId, event.payload.language, event.payload.code);
        break;
      case 'cell.awaiting-approval':
        this.finishCode(event.payload.cell);
        break;
      case 'cell.running':
        if (!this.closed.has(event.payload.cellId)) {
          // Auto-run: the code block ends where the run starts.
          const code = this.printed.get(event.payload.cellId) ?? '';
          if (event.payload.code !== code) this.code(event.payload.cellId, '', event.payload.code);
          this.closeBlock(event.payload.cellId);
        }
        break;
      case 'cell.terminal':
        this.out(event.payload.data);
        break;
      case 'cell.output':
        this.richOutput(event.payload.output);
        break;
      case 'cell.done':
        this.cellDone(event.payload.cell);
        break;
      case 'notice': {
        const { level, text } = event.payload.item;
        const paint = level === 'error' ? this.style.red : level === 'warning' ? this.style.yellow : this.style.dim;
        this.line(paint(`[${level}] ${text}`));
        break;
      }
      case 'error':
        this.line(this.style.red(`error: ${event.payload.message}`));
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
    if (!this.atLineStart) this.out('\n');
  }

  line(text: string): void {
    this.newline();
    this.out(`${text}\n`);
  }

  private out(text: string): void {
    if (!text) return;
    this.write(text);
    this.atLineStart = text.endsWith('\n');
  }

  private code(cellId: string, language: string, code: string): void {
    const before = this.printed.get(cellId);
    // The language is written before the code: wait for code so the header names the whole language.
    if (before === undefined && code === '') return;
    if (before === undefined) {
      this.line(this.style.cyan(`── ${language || 'code'} ${RULE}`));
      this.printed.set(cellId, '');
    }
    const shown = this.printed.get(cellId) ?? '';
    if (code.startsWith(shown)) {
      this.out(this.style.cyan(code.slice(shown.length)));
    } else {
      // The code changed under what was shown (an edit): show it whole again.
      this.line(this.style.cyan(`── ${language || 'code'} (as it will run) ${RULE}`));
      this.out(this.style.cyan(code));
    }
    this.printed.set(cellId, code);
  }

  private finishCode(cell: CellItem): void {
    const shown = this.printed.get(cell.id);
    if (shown === undefined || cell.code !== shown) this.code(cell.id, cell.language, cell.code);
    this.closeBlock(cell.id);
  }

  private closeBlock(cellId: string): void {
    this.closed.add(cellId);
    this.line(this.style.cyan(CLOSE_RULE));
  }

  private richOutput(output: Extract<AnyEvent, { name: 'cell.output' }>['payload']['output']): void {
    if (output.output_type === 'error') {
      this.line(this.style.red(`${output.ename}: ${output.evalue}`));
      return;
    }
    if (output.output_type === 'stream') return;
    const kinds = Object.keys(output.data).filter((k) => k !== 'text/plain');
    const plain = output.data['text/plain'];
    if (kinds.length) this.line(this.style.dim(`[${kinds.join(', ')} output — shown in the desktop app${typeof plain === 'string' ? `: ${plain.slice(0, 200)}` : ''}]`));
    else if (typeof plain === 'string' && output.output_type === 'execute_result') this.line(plain);
  }

  private cellDone(cell: CellItem): void {
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
