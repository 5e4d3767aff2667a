import { EXECUTE_TOOL_NAME } from '../../llm/execute-tool';
import { TextCallParser, type TextCallEvent } from './text-call-parser';
import type { ReplyEnd, ReplyEvent, ReplyStage } from './reply-stage';
import type { StepCall, StepWriter } from './step-writer';

/**
 * Calls a local model writes as text, in its own dialect (text-call-parser.ts), become cells and run
 * too — unless the server sends native calls: then whatever was held back is prose after all, and
 * this stage passes everything on from there.
 */
export class TextCallStage implements ReplyStage {
  private parser: TextCallParser | null;
  /** Cells of each text block, by the parser's block number. */
  private readonly blocks = new Map<number, StepCall[]>();

  constructor(
    private readonly writer: StepWriter,
    private readonly next: ReplyStage,
    offeredTools: readonly string[],
  ) {
    const offered = new Set([EXECUTE_TOOL_NAME, ...offeredTools]);
    this.parser = new TextCallParser((name) => offered.has(name));
  }

  push(ev: ReplyEvent): void {
    if (ev.type === 'text' && this.parser) return this.apply(this.parser.feed(ev.text));
    // The server parses calls itself: whatever text was held back is prose after all.
    if (ev.type === 'tool-call-start') this.stop();
    this.next.push(ev);
  }

  end(how: ReplyEnd): void {
    // Text held back as a possible call is still the model's text; a half-written call is cut off.
    this.stop();
    this.next.end(how);
  }

  private stop(): void {
    if (this.parser) this.apply(this.parser.finish());
    this.parser = null;
  }

  private apply(events: TextCallEvent[]): void {
    for (const ev of events) {
      if (ev.type === 'text') {
        this.next.push(ev);
        continue;
      }
      const cells = this.blocks.get(ev.block) ?? [];
      this.blocks.set(ev.block, cells);
      ev.calls.forEach((call, i) => {
        let entry = cells[i];
        if (!entry) {
          entry = this.writer.addCall({ cell: this.writer.addCell(null, '', ev.dialect), name: call.name, args: call.args });
          cells.push(entry);
        }
        entry.name = call.name;
        entry.args = call.args;
        this.writer.showCall(entry.cell, call.name, call.args);
      });
    }
  }
}
