import { LOAD_SKILL, READ_SKILL_FILE } from '../../llm/skill-tools';
import { offeredSkills, type FoundSkill } from './skill-discovery';

// What the model is told about skills: only each offered skill's name and description (its body is
// loaded when the model decides to use it), bounded, with a note when the list is cut. A workspace's
// skills are not offered until the person trusts its folder, so a stranger's description — text that
// may try to instruct the model — never reaches the provider before then.

/** Bytes of the skills list in the system prompt; the rest is left out with a note. */
export const SKILLS_PROMPT_BYTES = 16 * 1024;

export function skillsPromptSection(skills: readonly FoundSkill[], toolCalling: boolean): string {
  const offered = offeredSkills(skills);
  if (offered.length === 0) return '';
  const how = toolCalling
    ? `When a task matches a skill, call \`${LOAD_SKILL}\` with its name before anything else and follow its instructions; read the skill's other files with \`${READ_SKILL_FILE}\` when it says to. Run a skill's scripts with the \`execute\` tool, from the skill's folder (${LOAD_SKILL} tells you where).`
    : 'When a task matches a skill, first read its SKILL.md (the path after its description) with code and follow its instructions; its scripts and other files are in the same folder, and run like any code.';
  const parts = [
    '# Skills',
    `Skills the person installed: folders of instructions, scripts and resources for particular tasks. ${how}`,
    '',
  ];
  let budget = SKILLS_PROMPT_BYTES;
  let left = 0;
  for (const skill of offered) {
    const line = toolCalling ? `- ${skill.name}: ${skill.description}` : `- ${skill.name}: ${skill.description} (${skill.folder}/SKILL.md)`;
    const bytes = Buffer.byteLength(line, 'utf8') + 1;
    if (bytes > budget) {
      left++;
      continue;
    }
    budget -= bytes;
    parts.push(line);
  }
  if (left > 0) parts.push(`[${left} more skill(s) left out: the list is over the ${SKILLS_PROMPT_BYTES / 1024} KB the app gives it]`);
  return parts.join('\n');
}
