import { errorMessage, planSteps, type CellItem } from '@contract';
import type { ApprovalDeps } from './approval-deps';
import { editInEditor, editorCommand } from './code-editor';

// The question `oi` asks about a proposed plan (docs/cli.md#plan-mode): the plan is printed above it
// (plan-lines.ts); y approves it, e edits its steps — in $VISUAL/$EDITOR, one step a line, or typed
// line by line without one — then approves, n asks for the reason the model reads.

export const PLAN_QUESTION = 'Approve this plan? (y)es, (e)dit, (n)o: ';

export async function askPlan(deps: ApprovalDeps, cell: CellItem, signal: AbortSignal): Promise<void> {
  const { session, prompt, style } = deps;
  const answer = (input: { approve: boolean; steps?: string[]; reason?: string }) =>
    session
      .call('plan.answer', { conversationId: session.conversationId, cellId: cell.id, ...input })
      .catch((err: unknown) => prompt.line(style.red(errorMessage(err))));
  let question = PLAN_QUESTION;
  for (;;) {
    const reply = await prompt.ask({ prompt: style.bold(question), signal });
    if (signal.aborted) return;
    if (reply.kind === 'cancel') return deps.onCancel();
    // Ctrl-D: nothing more will be typed here, so the plan is not approved.
    if (reply.kind === 'eof') {
      await answer({ approve: false, reason: 'nobody answered at the terminal' });
      return;
    }
    const text = reply.text.trim().toLowerCase();
    if (text === 'y' || text === 'yes') {
      await answer({ approve: true });
      return;
    }
    if (text === 'n' || text === 'no') {
      const why = await prompt.ask({ prompt: style.bold('Why not? (the model reads this; Enter for no reason) '), signal });
      if (signal.aborted) return;
      if (why.kind === 'cancel') return deps.onCancel();
      await answer({ approve: false, reason: why.kind === 'line' ? why.text.trim() : '' });
      return;
    }
    if (text === 'e' || text === 'edit') {
      const steps = await editSteps(deps, planSteps(cell.code), signal);
      if (signal.aborted) return;
      if (steps && steps.length > 0) {
        prompt.line([style.bold('── edited plan ──'), ...steps.map((s, i) => `  ${i + 1}. ${s}`)].join('\n'));
        await answer({ approve: true, steps });
        return;
      }
      prompt.line(style.dim('(the plan was not changed)'));
      question = PLAN_QUESTION;
      continue;
    }
    question = 'Please answer y, e or n: ';
  }
}

/** The steps as the person left them (one a line, blank lines dropped), or null when they gave none. */
async function editSteps(deps: ApprovalDeps, steps: string[], signal: AbortSignal): Promise<string[] | null> {
  const { prompt, style, env } = deps;
  const lines = (text: string) =>
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
  const editor = editorCommand(env);
  if (editor) {
    prompt.suspend();
    const result = editInEditor(editor, steps.join('\n'), 'text', prompt.fds);
    prompt.resume();
    if ('error' in result) {
      prompt.line(style.red(result.error));
      return null;
    }
    return lines(result.code);
  }
  prompt.line(style.dim('Type the steps, one a line. End with a line holding only a dot (.), or Ctrl-C to stop.'));
  const typed: string[] = [];
  for (;;) {
    const answer = await prompt.ask({ prompt: '… ', pasteAnswers: true, signal });
    if (answer.kind !== 'line') return null;
    for (const line of answer.text.split('\n')) {
      if (line.trim() === '.') return lines(typed.join('\n'));
      typed.push(line);
    }
  }
}
