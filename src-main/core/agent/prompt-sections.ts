import { loadInstructions, type InstructionSources } from './project-instructions';
import { memoryPromptSection, readMemory } from './memory';
import { PromptFilesCache } from './prompt-files-cache';
import { findSkills, type SkillSources } from './skills/skill-discovery';
import { skillsPromptSection } from './skills/skill-prompt';

/** Where memory is kept (memory.ts), and whether the person has it on (the `memory` setting). */
export interface MemorySources {
  dataDir: string;
  enabled: () => boolean;
}

export interface PromptSections {
  /** The AGENTS.md files in effect (project-instructions.ts), or ''. */
  instructions: string;
  /** The skills offered (skills/skill-prompt.ts), or ''. */
  skills: string;
  /** The memory file's notes ('' when empty), or null with memory off: then save_memory is not offered either. */
  memory: string | null;
}

/** The process's sections kept between calls while their files stay the same (prompt-files-cache.ts). */
const kept = new PromptFilesCache();

/**
 * The parts of the system prompt read from files before every model call, side by side: a file
 * changed between turns (or by the turn's own cells) counts at the next call.
 */
export async function promptSections(
  workspace: string,
  deps: { instructions?: InstructionSources; skills?: SkillSources; memory?: MemorySources },
  tools: boolean,
  /** The skills this conversation may use of those found (its profile's set). */
  pick: <T extends { name: string }>(found: T[]) => T[] = (found) => found,
): Promise<PromptSections> {
  const memory = deps.memory?.enabled() ? deps.memory : null;
  const [instructions, skills, memoryText] = await Promise.all([
    deps.instructions ? instructionsSection(workspace, deps.instructions) : '',
    deps.skills ? skillsSection(workspace, deps.skills, tools, pick) : '',
    // A memory file that cannot be read (a link put in its place) gives nothing rather than stopping the turn.
    memory ? kept.memory(memory.dataDir, () => readMemory(memory.dataDir).then(memoryPromptSection, () => '')) : null,
  ]);
  return { instructions, skills, memory: memoryText };
}

function skillsSection(
  workspace: string,
  sources: SkillSources,
  tools: boolean,
  pick: <T extends { name: string }>(found: T[]) => T[],
): Promise<string> {
  const load = () => findSkills(workspace, sources).then((f) => skillsPromptSection(pick(f.skills), tools));
  // With no skills folder there is nothing to pick from, so the profile's set cannot change the text.
  return kept.skills(workspace, sources.dataDir, String(tools), load);
}

function instructionsSection(workspace: string, sources: InstructionSources): Promise<string> {
  return kept.instructions(workspace, sources, () => loadInstructions(workspace, sources).then((l) => l.prompt));
}
