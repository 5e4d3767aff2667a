import type { CellItem } from '@contract';
import type { EventBus } from '../../bridge/event-bus';
import { skillLanguage } from '../../llm/skill-tools';
import type { LiveConversation } from '../live-conversation';
import { finishCell } from '../turn-cell';
import { findSkills, type SkillSources } from './skill-discovery';
import { runSkillCall } from './skill-calls';
import { profileSkills } from '../conversation-profile';

/**
 * A call of a skill tool, as a cell the person sees as "using skill X" (the UI's skill row, the CLI's
 * line). Nothing runs, so nothing is asked: it reads text the person installed or trusted. The skills
 * are looked for again at the call, so a folder whose trust was withdrawn meanwhile gives nothing.
 */
export async function executeSkillCell(
  live: LiveConversation,
  events: EventBus,
  cell: CellItem,
  call: { tool: string; args: string },
  sources: SkillSources,
): Promise<boolean> {
  cell.language = skillLanguage(call.tool) ?? cell.language;
  cell.code = call.args;
  const started = Date.now();
  const { skills } = await findSkills(live.conv.workspace, sources);
  // Only the skills its profile enables: one left out is not loadable either.
  const result = await runSkillCall(call.tool, call.args, profileSkills(live, skills));
  cell.durationMs = Date.now() - started;
  finishCell(live, events, cell, result.ok ? 'done' : 'failed', result.forModel);
  return result.ok;
}
