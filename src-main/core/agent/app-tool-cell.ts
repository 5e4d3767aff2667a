import type { CellItem } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import { SAVE_MEMORY, skillLanguage } from '../llm/skill-tools';
import type { LiveConversation } from './live-conversation';
import { parseMcpArgs } from './mcp-cell';
import { memoryFile, saveNote } from './memory';
import type { MemorySources } from './prompt-sections';
import { executeSkillCell } from './skills/skill-cell';
import type { SkillSources } from './skills/skill-discovery';
import { finishCell } from './turn-cell';

// The app's own tools (docs/agent.md#skills, #memory): calls that run no code, so nothing is asked —
// a skill read, a note saved — each shown to the person as one line.

interface AppToolDeps {
  events: EventBus;
  skills?: SkillSources;
  memory?: MemorySources;
}

export const isAppTool = (name: string, deps: AppToolDeps): boolean =>
  name === SAVE_MEMORY ? deps.memory !== undefined : deps.skills !== undefined && skillLanguage(name) !== null;

/** Runs the call as its cell; false when it failed (the model reads why). */
export async function executeAppToolCell(
  live: LiveConversation,
  deps: AppToolDeps,
  cell: CellItem,
  call: { tool: string; args: string },
): Promise<boolean> {
  if (call.tool !== SAVE_MEMORY || !deps.memory) return deps.skills ? executeSkillCell(live, deps.events, cell, call, deps.skills) : false;
  cell.language = skillLanguage(SAVE_MEMORY) ?? cell.language;
  cell.code = call.args;
  const fail = (why: string) => (finishCell(live, deps.events, cell, 'failed', `Error: ${why}; nothing was saved.`), false);
  // Checked at the call too: the person may have turned memory off while the model was answering.
  if (!deps.memory.enabled()) return fail('memory is off (the person turned it off in Settings)');
  const args = parseMcpArgs(call.args);
  if (!args.ok) return fail(args.error);
  const saved = await saveNote(deps.memory.dataDir, args.value.note).catch((err: Error) => ({ ok: false as const, error: err.message }));
  if (!saved.ok) return fail(saved.error);
  finishCell(
    live,
    deps.events,
    cell,
    'done',
    `Saved to the person's memory (${memoryFile(deps.memory.dataDir)}); they see the note and can edit it.`,
  );
  return true;
}
