import type { EventPayload } from '@contract';
import type { CliSession } from './cli-session';
import type { PromptLine } from './terminal/prompt-line';
import type { Style } from './terminal-style';

/** What the terminal's questions (approval-questions.ts, plan-question.ts) need from the running oi. */
export interface ApprovalDeps {
  session: CliSession;
  prompt: PromptLine;
  style: Style;
  env: NodeJS.ProcessEnv;
  /** Ctrl-C at a question: what Ctrl-C does elsewhere (stop the turn). */
  onCancel(): void;
  /** Whether this error line is already on screen (the install question need not repeat it). */
  shownError?(line: string): boolean;
  /** The person answered a program's input question: the program's echo of the answer will follow. */
  answered?(question: EventPayload<'cell.input-requested'>, echo: string): void;
}
