import { describeProposal, errorMessage, readScheduleProposal, SCHEDULE_LANGUAGE, type CellItem } from '@contract';
import type { ApprovalDeps } from './approval-deps';
import type { Style } from './terminal-style';

// A scheduled task the model proposed (docs/schedules.md#from-a-conversation), in `oi`: what will run,
// when, where and how, then a y/n question. Only a person at the terminal answers it: `oi -m` without
// one declines it as unasked, and -y / auto-run do not cover it (the agent asks even then).

export const SCHEDULE_QUESTION = 'Schedule this task? (y)es, (n)o: ';

export const isScheduleCell = (language: string): boolean => language === SCHEDULE_LANGUAGE;

/** The proposal as lines, before the question. */
export function scheduleLines(cell: Pick<CellItem, 'code'>, style: Style): string {
  const read = readScheduleProposal(cell.code);
  if (!read.ok) return style.yellow(`── proposed scheduled task (unreadable: ${read.error}) ──`);
  const rows = describeProposal(read.proposal);
  const width = Math.max(...rows.map(([k]) => k.length));
  return [style.bold('── proposed scheduled task ──'), ...rows.map(([k, v]) => `  ${style.dim(k.padEnd(width))}  ${v}`)].join('\n');
}

/** The one line when the call is over: made, declined, or why it could not be. */
export function scheduleCellDone(cell: CellItem, style: Style): string {
  if (cell.status === 'done') return style.green('✓ scheduled');
  return style.yellow(`↷ not scheduled: ${cell.resultForModel ?? cell.status}`);
}

export async function askSchedule(deps: ApprovalDeps, cell: CellItem, signal: AbortSignal): Promise<void> {
  const { session, prompt, style } = deps;
  const report = (err: unknown) => prompt.line(style.red(errorMessage(err)));
  let question = SCHEDULE_QUESTION;
  for (;;) {
    const reply = await prompt.ask({ prompt: style.bold(question), signal });
    if (signal.aborted) return;
    if (reply.kind === 'cancel') return deps.onCancel();
    const text = reply.kind === 'line' ? reply.text.trim().toLowerCase() : 'n';
    // Ctrl-D: nothing more will be typed here, so nothing is scheduled.
    if (text === 'y' || text === 'yes' || text === 'n' || text === 'no') {
      await (text.startsWith('y') ? session.approve(cell, null) : session.skip(cell)).catch(report);
      return;
    }
    question = 'Please answer y or n: ';
  }
}
