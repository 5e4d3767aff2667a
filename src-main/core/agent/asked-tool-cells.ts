import type { CellItem, Settings } from '@contract';
import { COMPUTER_TOOL_NAME } from '../llm/computer-tool';
import { SCHEDULE_TOOL } from '../llm/schedule-tool';
import type { ComputerService } from './computer-cell';
import type { LiveConversation } from './live-conversation';
import { runScheduleCell, type ScheduleTasks } from './schedule-cell';
import { hookGuard, type TurnHookDeps } from './turn-hooks';

// The tool calls the person is asked about even under auto-run: an action on the screen
// (computer-cell.ts) and a scheduled task (schedule-cell.ts). Each runs its own cell; the turn reads
// 'stop' (the person stopped the turn), 'failed' (the model reads why) or 'done'.

export interface AskedToolDeps extends TurnHookDeps {
  computer?: ComputerService;
  schedules?: ScheduleTasks;
}

/** The names of these calls (whether or not their service is here). */
export const ASKED_TOOLS: ReadonlySet<string> = new Set([COMPUTER_TOOL_NAME, SCHEDULE_TOOL]);

/** The call's run, or null when it is no such call (or its service is absent: the tool was not offered). */
export function askedToolCell(
  live: LiveConversation,
  deps: AskedToolDeps,
  settings: Settings,
  call: { cell: CellItem; args: string | null; name: string },
  signal: AbortSignal,
): Promise<'done' | 'failed' | 'stop'> | null {
  const { cell, args, name } = call;
  if (args === null) return null;
  if (name === COMPUTER_TOOL_NAME && deps.computer)
    return deps.computer.runCell(live, deps.events, settings, cell, args, signal, hookGuard(live, deps));
  if (name === SCHEDULE_TOOL && deps.schedules)
    return runScheduleCell(live, { events: deps.events, schedules: deps.schedules }, settings, cell, args, signal, hookGuard(live, deps));
  return null;
}
