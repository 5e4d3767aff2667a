import { fencedDialectOf } from './answer-dialect';
import { FenceCells } from './fenced-stage';
import type { ReplyEnd, ReplyEvent, ReplyStage } from './reply-stage';
import type { StepWriter } from './step-writer';

/**
 * An unprobed local model's reply streams as prose (answer-dialect.ts); when it ends with no call in
 * any form but a runnable fenced block, it now ends at its first block, and the blocks and the prose
 * between them follow as cells and items, as if fenced mode had parsed it live.
 */
export class AnswerDialectStage implements ReplyStage {
  constructor(
    private readonly writer: StepWriter,
    private readonly runnable: (info: string) => string | null,
    private readonly fencedTools: Map<string, string>,
  ) {}

  push(ev: ReplyEvent): void {
    if (ev.type === 'text') this.writer.text(ev.text);
  }

  end(how: ReplyEnd): void {
    if (how !== 'done' || this.writer.calls.length > 0) return;
    const open = this.writer.openItem;
    const events = open ? fencedDialectOf(open.text, this.runnable) : null;
    if (!open || !events) return;
    const cells = new FenceCells(this.writer, this.fencedTools);
    open.text = '';
    let before = true;
    for (const ev of events) {
      before &&= ev.type === 'text';
      // Already shown (streamed); assistant.done sends the shortened item.
      if (before && ev.type === 'text') open.text += ev.text;
      else cells.apply(ev);
    }
  }
}
