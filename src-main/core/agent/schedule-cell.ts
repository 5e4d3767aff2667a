import {
  describeWhen,
  errorMessage,
  readScheduleProposal,
  type CellItem,
  type Conversation,
  type NoticeItem,
  type Schedule,
  type ScheduleDraft,
  type Settings,
} from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { SCHEDULE_LANGUAGE } from '../llm/schedule-tool';
import { addNoticeItem } from './conversation-changes';
import { newId, now } from './ids';
import type { LiveConversation } from './live-conversation';
import { approve, finishCell, type CellGuard } from './turn-cell';

// A scheduled task proposed in a conversation (docs/schedules.md#from-a-conversation). The model's call
// makes nothing: the person approves the task on its card, or at oi's y/n question. Auto-run — the
// setting, the conversation's "always", `oi -m -y` — never does: a task outlives the turn and runs with
// nobody watching, so it is a consent the person gives, not a run. Approved, the task is made by the
// same code as the Schedules screen's (schedules/schedule-admin.ts), which app.ts gives here.

/** What the turn needs of the scheduled tasks (ScheduleAdmin; agent/ comes before schedules/). */
export interface ScheduleTasks {
  /** Refuses, naming the problem, a task whose folder is missing; writes nothing. */
  check(draft: ScheduleDraft): Promise<void>;
  /** Adds the task to the store and its OS scheduler, as `oi schedule add` and the Schedules screen do. */
  add(draft: ScheduleDraft, own: Pick<Schedule, 'model' | 'profile'>): Promise<Schedule>;
}

/** Whether a model call of this conversation gets the tool: tools on, someone who may be asked, nothing read-only. */
export function scheduleOffered(live: LiveConversation, tools: boolean): boolean {
  // Not to a sub-agent (its parent's person never sees its cards), in plan mode (it changes things),
  // nor in a scheduled run (nobody is there to approve).
  return tools && !live.subagent && live.conv.planMode !== true && live.conv.scheduled === undefined;
}

/** The model's arguments with the conversation's folder and profile filled in where it gave none: what the person approves. */
function completed(args: string, conv: Conversation): string {
  try {
    const value: unknown = JSON.parse(args.trim() === '' ? '{}' : args);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return args;
    const filled: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    filled.workspace ??= conv.workspace;
    if (conv.profile) filled.profile ??= conv.profile;
    return JSON.stringify(filled, null, 2);
  } catch {
    return args;
  }
}

/**
 * One schedule_task call: checked, asked for, and the task made when the person says yes. Returns
 * 'stop' when the person stopped the turn, 'failed' when the proposal was wrong (the model reads why).
 */
export async function runScheduleCell(
  live: LiveConversation,
  deps: { events: EventBus; schedules: ScheduleTasks },
  settings: Settings,
  cell: CellItem,
  args: string,
  signal: AbortSignal,
  guard?: CellGuard,
): Promise<'done' | 'failed' | 'stop'> {
  const { events, schedules } = deps;
  cell.language = SCHEDULE_LANGUAGE;
  cell.code = completed(args, live.conv);
  const fail = (why: string) => (finishCell(live, events, cell, 'failed', `Error: ${why}; nothing was scheduled.`), 'failed' as const);
  const checked = async () => {
    const read = readScheduleProposal(cell.code);
    if (!read.ok) return read.error;
    return schedules.check(read.proposal.draft).then(
      () => read.proposal,
      (err: unknown) => errorMessage(err),
    );
  };
  // Checked before anyone is asked: the person is never asked to approve a task that cannot be made.
  const proposal = await checked();
  if (typeof proposal === 'string') return fail(proposal);
  const refused = guard ? await guard(cell) : null;
  if (refused !== null) {
    finishCell(live, events, cell, 'skipped', refused);
    return 'done';
  }
  // mustAsk: auto-run does not cover it; "always" answers only this question (no auto-run is turned on).
  const decision = await approve(live, events, settings, cell, signal, { mustAsk: true, onAlways: () => undefined });
  if (decision === 'stop') {
    finishCell(live, events, cell, 'skipped', 'Not scheduled: the user stopped the turn.');
    return 'stop';
  }
  if (decision === 'unasked') {
    finishCell(
      live,
      events,
      cell,
      'skipped',
      'Not scheduled: nobody could be asked to approve it, and a scheduled task is never made without the person’s consent.',
    );
    return 'done';
  }
  if (decision === 'skip') {
    cell.approval = 'declined';
    finishCell(live, events, cell, 'skipped', 'The person declined this scheduled task; nothing was scheduled.');
    return 'done';
  }
  // Read again: what the person approved is what is made (an edit at approval is checked as the model's was).
  const approved = await checked();
  if (typeof approved === 'string') return fail(approved);
  let schedule: Schedule;
  try {
    schedule = await schedules.add(approved.draft, { model: null, profile: approved.profile });
  } catch (err) {
    return fail(errorMessage(err));
  }
  const when = describeWhen(schedule.when);
  finishCell(
    live,
    events,
    cell,
    'done',
    `Scheduled "${schedule.name}" (id ${schedule.id}): ${when}, in ${schedule.workspace}. The person sees it in the Schedules screen and oi schedule list.`,
  );
  const notice: NoticeItem = {
    kind: 'notice',
    id: newId(),
    level: 'info',
    text: `Scheduled task “${schedule.name}” added: ${when}.`,
    createdAt: now(),
    schedule: { id: schedule.id, name: schedule.name },
  };
  addNoticeItem(live.conv, events, notice);
  return 'done';
}
