import type { EventBus } from '../bridge/event-bus';
import type { InputAnswer, InputAsker } from '../exec/index';
import { newId } from './ids';

// Questions a running program asks the person (docs/exec.md#input), shown on its cell: the engine
// asks through the InputAsker made here, the renderer (or the CLI) answers with `cell.input`. An
// answer is handed to the engine and never kept: not in the conversation, not in events (a closed
// question says only how it closed), so a password typed here exists only on its way to the program.

export class InputQuestions {
  private readonly open = new Map<string, { cellId: string; resolve: (answer: InputAnswer) => void }>();

  /** The asker for one cell's run. */
  askerFor(conversationId: string, cellId: string, events: EventBus): InputAsker {
    return (question, signal) =>
      new Promise<InputAnswer>((resolve) => {
        const questionId = newId();
        const close = (how: 'answered' | 'ended' | 'withdrawn', answer: InputAnswer): void => {
          if (!this.open.delete(questionId)) return;
          signal.removeEventListener('abort', withdraw);
          events.emit('cell.input-closed', { conversationId, cellId, questionId, how });
          resolve(answer);
        };
        const withdraw = (): void => close('withdrawn', { kind: 'eof' });
        this.open.set(questionId, { cellId, resolve: (answer) => close(answer.kind === 'line' ? 'answered' : 'ended', answer) });
        signal.addEventListener('abort', withdraw, { once: true });
        events.emit('cell.input-requested', {
          conversationId,
          cellId,
          questionId,
          prompt: question.prompt,
          password: question.password,
          mode: question.mode,
          command: question.command,
        });
        if (signal.aborted) withdraw();
      });
  }

  /** How many questions wait for the person's answer now. */
  get openCount(): number {
    return this.open.size;
  }

  /** false when no such question is open (answered already, or withdrawn). */
  answer(questionId: string, answer: InputAnswer): boolean {
    const question = this.open.get(questionId);
    if (!question) return false;
    question.resolve(answer);
    return true;
  }
}
