import { openStepsNote, openTasks, type CellItem, type Task } from '@contract';
import { addNotice } from '../turn-notices';
import { parseMcpArgs } from '../mcp-cell';
import type { EventBus } from '../../bridge/event-bus';
import type { LiveConversation } from '../live-conversation';
import { finishCell } from '../turn-cell';
import { addSteps, applyTaskCall, checkSteps, tasksForModel } from './task-list';
import { planLanguage, PROPOSE_PLAN } from '../../llm/plan-tools';
import * as changes from '../conversation-changes';

// The calls of propose_plan and update_tasks inside a turn (docs/agent.md#plan-mode, #task-list).
// Nothing runs: a task call changes the list the conversation keeps; a plan waits for the person's
// answer (plan.answer) like a cell waits for Run, whatever auto-run says — approving a plan is the
// point of plan mode.

/**
 * A call of propose_plan or update_tasks, recorded as its cell. 'failed': refused (the model reads
 * why; counted as a failed attempt); 'stop': the turn was stopped while a plan waited.
 */
export async function runPlanToolCall(
  live: LiveConversation,
  events: EventBus,
  cell: CellItem,
  call: { tool: string; args: string },
  signal: AbortSignal,
): Promise<'ok' | 'failed' | 'stop'> {
  cell.language = planLanguage(call.tool) ?? cell.language;
  cell.code = call.args;
  if (call.tool !== PROPOSE_PLAN) return executeTaskCell(live, events, cell, call.args) ? 'ok' : 'failed';
  const outcome = await executePlanCell(live, events, cell, call.args, signal);
  return outcome === 'failed' || outcome === 'stop' ? outcome : 'ok';
}

/** The note a turn leaves when it ended with steps of the task list open (UI and CLI show notices). */
export function noteOpenSteps(live: LiveConversation, events: EventBus): void {
  const open = openTasks(live.conv.tasks ?? []).length;
  if (open === 0) return;
  addNotice(live, events, 'info', openStepsNote(open));
}

/** Applies an update_tasks call; false when it was refused (the model reads why). */
export function executeTaskCell(live: LiveConversation, events: EventBus, cell: CellItem, args: string): boolean {
  const update = applyTaskCall(live.conv.tasks ?? [], args);
  if (update.ok) setTasks(live, events, update.tasks);
  cell.durationMs = 0;
  finishCell(live, events, cell, update.ok ? 'done' : 'failed', update.forModel);
  return update.ok;
}

/** Asks the person about a proposed plan. 'stop': the turn was stopped while it waited. */
export async function executePlanCell(
  live: LiveConversation,
  events: EventBus,
  cell: CellItem,
  args: string,
  signal: AbortSignal,
): Promise<'approved' | 'rejected' | 'failed' | 'stop'> {
  if (!live.conv.planMode) {
    finishCell(
      live,
      events,
      cell,
      'failed',
      `Error: ${PROPOSE_PLAN} is for plan mode, and this conversation is not in it; keep your steps with update_tasks and go on.`,
    );
    return 'failed';
  }
  const parsed = parseMcpArgs(args);
  const proposed = parsed.ok ? checkSteps(parsed.value.steps) : parsed.error;
  if (typeof proposed === 'string') {
    finishCell(live, events, cell, 'failed', `Error: ${proposed}. Propose the plan again.`);
    return 'failed';
  }
  cell.status = 'awaiting-approval';
  // Wait first, then tell: an in-process listener (the CLI) may answer while the event is emitted.
  const decided = live.approvals.wait(cell.id, signal);
  events.emit('cell.awaiting-approval', { conversationId: live.conv.id, cell });
  const decision = await decided;
  if (decision.kind === 'stop') {
    finishCell(live, events, cell, 'skipped', 'Not approved: the user stopped the turn.');
    return 'stop';
  }
  if (decision.kind === 'skip') {
    cell.approval = 'declined';
    const why = decision.unasked
      ? 'Not approved: nobody could be asked (no one at a terminal).'
      : `The person rejected this plan.${decision.reason?.trim() ? ` Their reason: ${decision.reason.trim()}` : ''}`;
    finishCell(live, events, cell, 'skipped', `${why} Plan mode stays on: look further if you need to, then propose a new plan.`);
    return 'rejected';
  }
  const edited = decision.code !== null ? stepsOf(decision.code) : proposed;
  const steps = typeof edited === 'string' ? proposed : edited;
  const changed = steps.join('\n') !== proposed.join('\n');
  if (changed) {
    cell.modelCode = cell.code;
    cell.code = JSON.stringify({ steps });
  }
  cell.approval = 'user';
  setPlanMode(live, events, false);
  // The approved plan becomes the task list: the person follows the work against what they approved.
  const seeded = addSteps([], steps);
  const tasks: Task[] = seeded.ok ? seeded.tasks : [];
  setTasks(live, events, tasks);
  finishCell(
    live,
    events,
    cell,
    'done',
    `The person approved the plan${changed ? ', with their edits' : ''}. Plan mode is off: the workspace is writable and code runs as usual. ` +
      `Carry the plan out now, step by step: mark each step started, then done, with update_tasks.\n${tasksForModel(tasks)}`,
  );
  return 'approved';
}

export function setPlanMode(live: LiveConversation, events: EventBus, planMode: boolean): void {
  if ((live.conv.planMode ?? false) === planMode) return;
  changes.setPlanMode(live.conv, events, planMode);
}

function setTasks(live: LiveConversation, events: EventBus, tasks: Task[]): void {
  changes.setTasks(live.conv, events, tasks);
}

/** The steps of a plan's JSON arguments (as the person edited them), or what is wrong with them. */
function stepsOf(json: string): string[] | string {
  const parsed = parseMcpArgs(json);
  return parsed.ok ? checkSteps(parsed.value.steps) : parsed.error;
}
