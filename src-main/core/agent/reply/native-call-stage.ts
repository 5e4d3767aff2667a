import { ToolCallAssembler } from './tool-call-assembler';
import type { ReplyEnd, ReplyEvent, ReplyStage } from './reply-stage';
import type { StepCall, StepWriter } from './step-writer';

/** Tool calls the server parsed itself: each is a cell from its first event, its code shown as the arguments stream. */
export class NativeCallStage implements ReplyStage {
  private readonly assembler = new ToolCallAssembler();
  /** The call of each provider call index. */
  private readonly calls = new Map<number, StepCall>();

  constructor(
    private readonly writer: StepWriter,
    private readonly next: ReplyStage,
  ) {}

  push(ev: ReplyEvent): void {
    switch (ev.type) {
      case 'tool-call-start': {
        this.assembler.start(ev.index, ev.id, ev.name);
        this.calls.set(ev.index, this.writer.addCall({ cell: this.writer.addCell(ev.id, ''), name: ev.name, args: '' }));
        return;
      }
      case 'tool-call-delta': {
        const call = this.assembler.append(ev.index, ev.argumentsDelta);
        const entry = this.calls.get(ev.index);
        if (!call || !entry) return;
        entry.args = call.args;
        this.writer.showCall(entry.cell, entry.name, call.args);
        return;
      }
      default:
        this.next.push(ev);
    }
  }

  end(how: ReplyEnd): void {
    this.next.end(how);
  }
}
