import { errorMessage } from '@contract';
import type { CellItem, EventPayload } from '@contract';
import type { ApprovalDeps } from './approval-deps';
import { editInEditor, editorCommand } from './code-editor';
import { askPlan } from './plan-question';
import { askSchedule } from './schedule-question';

import { wrapRows, type Paint } from './terminal/wrap-rows';

export const RUN_QUESTION = 'Run this code? (y)es, (n)o, (e)dit, (a)lways in this conversation: ';
const INSTALL_QUESTION = 'Install it? (y)es, (n)o: ';
const NETWORK_QUESTION = 'Allow it? (y)es in this conversation, (a)lways, (n)o: ';
const NETWORK_ANSWERS: Record<string, 'conversation' | 'always' | 'deny'> = {
  y: 'conversation',
  yes: 'conversation',
  a: 'always',
  always: 'always',
  n: 'deny',
  no: 'deny',
};

/**
 * The questions the agent asks the person — run this cell? install this package? — on the prompt
 * line, so only what is typed for them answers them. A question is withdrawn when its cell is decided
 * some other way (the turn stopped, a message sent instead).
 */
export class ApprovalQuestions {
  private readonly open = new Map<string, AbortController>();
  /** Code and commands shown before a question: wrapped at the terminal's width, each wrapped row marked. */
  private readonly codePaint: Paint;

  constructor(private readonly deps: ApprovalDeps) {
    this.codePaint = { text: deps.style.cyan, mark: deps.style.dim };
  }

  /** The cell or install question was settled elsewhere: take its question off the line. */
  withdraw(id: string): void {
    this.open.get(id)?.abort();
    this.open.delete(id);
  }

  withdrawAll(): void {
    for (const id of [...this.open.keys()]) this.withdraw(id);
  }

  /** `from`: the sub-agent that asks (its question is asked here, answered to it). */
  async cell(cell: CellItem, from?: string): Promise<void> {
    const { session, prompt, style } = this.deps;
    const signal = this.track(cell.id);
    let question = RUN_QUESTION;
    try {
      for (;;) {
        const answer = await prompt.ask({ prompt: this.asking(from) + style.bold(question), signal });
        if (signal.aborted) return;
        if (answer.kind === 'cancel') return this.deps.onCancel();
        // Ctrl-D: nothing more will be typed here, so nothing runs.
        if (answer.kind === 'eof') {
          await session.skip(cell).catch(this.report);
          return;
        }
        const reply = answer.text.trim().toLowerCase();
        if (reply === 'y' || reply === 'yes') {
          await session.approve(cell, null).catch(this.report);
          return;
        }
        if (reply === 'a' || reply === 'always') {
          await session.approve(cell, null, true).catch(this.report);
          return;
        }
        if (reply === 'n' || reply === 'no') {
          await session.skip(cell).catch(this.report);
          return;
        }
        if (reply === 'e' || reply === 'edit') {
          const code = await this.edit(cell, signal);
          if (signal.aborted) return;
          if (code !== null) {
            prompt.line(`${style.cyan(`── edited ${cell.language} ──`)}\n${wrapRows(code, prompt.columns, this.codePaint)}`);
            await session.approve(cell, code).catch(this.report);
            return;
          }
          question = RUN_QUESTION;
          continue;
        }
        question = 'Please answer y, n, e or a: ';
      }
    } finally {
      this.open.delete(cell.id);
    }
  }

  /** A plan the model proposed (plan-question.ts). */
  async plan(cell: CellItem): Promise<void> {
    const signal = this.track(cell.id);
    try {
      await askPlan(this.deps, cell, signal);
    } finally {
      this.open.delete(cell.id);
    }
  }

  /** A scheduled task the model proposed (schedule-question.ts). */
  async schedule(cell: CellItem): Promise<void> {
    const signal = this.track(cell.id);
    try {
      await askSchedule(this.deps, cell, signal);
    } finally {
      this.open.delete(cell.id);
    }
  }

  async install(q: EventPayload<'install.awaiting-approval'>, from?: string): Promise<void> {
    const { session, prompt, style } = this.deps;
    const signal = this.track(q.questionId);
    const reason = this.deps.shownError?.(q.reason) ? [] : [q.reason];
    prompt.line(`${style.yellow([...reason, q.text].join('\n'))}\n${wrapRows(`  ${q.command}`, prompt.columns, this.codePaint)}`);
    let question = INSTALL_QUESTION;
    try {
      for (;;) {
        const answer = await prompt.ask({ prompt: this.asking(from) + style.bold(question), signal });
        if (signal.aborted) return;
        if (answer.kind === 'cancel') return this.deps.onCancel();
        const reply = answer.kind === 'line' ? answer.text.trim().toLowerCase() : 'n';
        if (!['y', 'yes', 'n', 'no'].includes(reply)) {
          question = 'Please answer y or n: ';
          continue;
        }
        const install = reply.startsWith('y');
        await session
          .call('install.answer', { conversationId: session.ownerOf(q.questionId), questionId: q.questionId, install })
          .catch(this.report);
        return;
      }
    } finally {
      this.open.delete(q.questionId);
    }
  }

  /** Sandboxed code wants a host the sandbox does not let through by itself (docs/sandbox.md#network). */
  async network(q: EventPayload<'network.awaiting-approval'>, from?: string): Promise<void> {
    const { session, prompt, style } = this.deps;
    const signal = this.track(q.questionId);
    prompt.line(
      style.yellow(
        `The code wants to connect to ${q.host}:${q.port}. The sandbox lets it reach only the package registries and the hosts you allow.`,
      ),
    );
    let question = NETWORK_QUESTION;
    try {
      for (;;) {
        const answer = await prompt.ask({ prompt: this.asking(from) + style.bold(question), signal });
        if (signal.aborted) return;
        if (answer.kind === 'cancel') return this.deps.onCancel();
        const reply = NETWORK_ANSWERS[answer.kind === 'line' ? answer.text.trim().toLowerCase() : 'n'];
        if (!reply) {
          question = 'Please answer y, a or n: ';
          continue;
        }
        await session
          .call('network.answer', { conversationId: session.ownerOf(q.questionId), questionId: q.questionId, answer: reply })
          .catch(this.report);
        return;
      }
    } finally {
      this.open.delete(q.questionId);
    }
  }

  /**
   * The running code waits for input (docs/exec.md#input): the program printed its prompt; the answer
   * is typed on the line below (unseen for a password), Ctrl-D ends the input, Ctrl-C stops the turn.
   */
  async input(q: EventPayload<'cell.input-requested'>, from?: string): Promise<void> {
    const { session, prompt, style } = this.deps;
    const signal = this.track(q.questionId);
    try {
      const what = q.password ? 'password, typed unseen' : q.mode === 'keys' ? 'the program reads keys: a line and Enter' : 'input';
      // The program's own prompt is repeated on the line: output waits for its line's end to be shown.
      const asked = q.prompt.trim() ? q.prompt.replace(/\s+$/, ' ') : '';
      const answer = await prompt.ask({
        prompt: `${this.asking(from)}${style.dim(`(${what}; Ctrl-D ends it) `)}${asked}`,
        hidden: q.password,
        pasteAnswers: true,
        signal,
      });
      if (signal.aborted) return;
      if (answer.kind === 'cancel') return this.deps.onCancel();
      const reply = answer.kind === 'line' ? { text: answer.text } : { eof: true as const };
      // A line mode runner echoes the line typed (a newline for a password), as a terminal would.
      if (answer.kind === 'line' && q.mode === 'line') this.deps.answered?.(q, q.password ? '\n' : `${answer.text}\n`);
      await session
        .call('cell.input', { conversationId: session.ownerOf(q.questionId), questionId: q.questionId, ...reply })
        .catch(this.report);
    } finally {
      this.open.delete(q.questionId);
    }
  }

  /** The code as the person changed it, or null when they did not (editor failed, Ctrl-C). */
  private async edit(cell: CellItem, signal: AbortSignal): Promise<string | null> {
    const { prompt, style, env } = this.deps;
    const editor = editorCommand(env);
    if (editor) {
      // The editor owns the terminal until it exits.
      prompt.suspend();
      const result = editInEditor(editor, cell.code, cell.language, prompt.fds);
      prompt.resume();
      if ('error' in result) {
        prompt.line(style.red(result.error));
        return null;
      }
      return result.code;
    }
    prompt.line(style.dim('Type the new code. End with a line holding only a dot (.), or Ctrl-C to stop.'));
    const lines: string[] = [];
    for (;;) {
      const answer = await prompt.ask({ prompt: '… ', pasteAnswers: true, signal });
      if (answer.kind !== 'line') return null;
      for (const line of answer.text.split('\n')) {
        if (line.trim() === '.') return lines.join('\n');
        lines.push(line);
      }
    }
  }

  /** Who asks, before a sub-agent's question: several may ask in turn while the parent works. */
  private asking(from: string | undefined): string {
    return from === undefined ? '' : this.deps.style.dim(`[${from}] `);
  }

  private track(id: string): AbortSignal {
    const controller = new AbortController();
    this.open.set(id, controller);
    return controller.signal;
  }

  private readonly report = (err: unknown) => this.deps.prompt.line(this.deps.style.red(errorMessage(err)));
}
