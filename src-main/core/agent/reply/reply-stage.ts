import type { ProviderEvent } from '../../llm/provider';
import type { StepWriter } from './step-writer';

/**
 * The model's reply is read by a chain of small parsers, each one kind of call (calls written as text,
 * native tool calls, fenced code blocks, …): every stage takes the events it knows, writes what it
 * reads through the StepWriter, and passes the rest on to the next stage; the last writes prose.
 * stream-step.ts builds the chain (replyParsers) and drives it; a new kind of call is a new stage.
 */
export interface ReplyStage {
  push(ev: ReplyEvent): void;
  /** The reply is over; a stage gives what it held back to the writer or the next stage, then ends the next. */
  end(how: ReplyEnd): void;
}

/** What the parsers read: the reply's text and its native tool calls (thinking and usage go elsewhere). */
export type ReplyEvent = Extract<ProviderEvent, { type: 'text' | 'tool-call-start' | 'tool-call-delta' }>;

/** 'done': the stream ended; 'stopped': it ended quietly because Stop was pressed; 'broken': it failed. */
export type ReplyEnd = 'done' | 'stopped' | 'broken';

/** The chain's end: text is prose. */
export class ProseStage implements ReplyStage {
  constructor(private readonly writer: StepWriter) {}

  push(ev: ReplyEvent): void {
    if (ev.type === 'text') this.writer.text(ev.text);
  }

  end(): void {}
}
