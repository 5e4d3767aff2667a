import type { CellItem } from '@contract';
import { EXECUTE_TOOL_NAME } from '../../llm/execute-tool';
import { FencedCodeParser, type FenceEvent } from './fenced-code-parser';
import type { ReplyEnd, ReplyEvent, ReplyStage } from './reply-stage';
import type { StepWriter } from './step-writer';

/** Fenced-code mode (no tools were sent): runnable ``` blocks become cells as they are written, the rest is prose. */
export class FencedStage implements ReplyStage {
  private readonly parser: FencedCodeParser;
  private readonly cells: FenceCells;

  constructor(writer: StepWriter, runnable: (info: string) => string | null, fencedTools: Map<string, string>) {
    this.parser = new FencedCodeParser(runnable);
    this.cells = new FenceCells(writer, fencedTools);
  }

  push(ev: ReplyEvent): void {
    if (ev.type === 'text') for (const fence of this.parser.feed(ev.text)) this.cells.apply(fence);
  }

  /** An unclosed block is complete when the stream ends (not when it broke: that one stays as it was). */
  end(how: ReplyEnd): void {
    if (how !== 'broken') for (const fence of this.parser.finish()) this.cells.apply(fence);
  }
}

/** Fence events written as prose and cells; a block tagged with an MCP tool's language calls that tool. */
export class FenceCells {
  private cell: CellItem | null = null;

  constructor(
    private readonly writer: StepWriter,
    private readonly fencedTools: Map<string, string>,
  ) {}

  apply(ev: FenceEvent): void {
    switch (ev.type) {
      case 'text':
        this.writer.text(ev.text);
        break;
      case 'code-start':
        this.cell = this.writer.addCell(null, ev.language);
        this.writer.addCall({ cell: this.cell, name: this.fencedTools.get(ev.language) ?? EXECUTE_TOOL_NAME, args: null });
        break;
      case 'code':
        if (this.cell) this.writer.showCode(this.cell, this.cell.language, ev.code);
        break;
      case 'code-end':
        if (this.cell) this.writer.showCode(this.cell, ev.language, ev.code);
        this.cell = null;
        break;
    }
  }
}
