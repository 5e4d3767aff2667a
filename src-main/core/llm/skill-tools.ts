import type { ToolSpec } from './provider';

// The two tools a model gets when skills are offered (docs/agent.md#skills). A call is recorded as a
// cell whose language is `skill:load` or `skill:read` and whose code is the call's JSON arguments, so
// history can give the call back by its name (as MCP cells do) and the UI and CLI can show it as
// "using skill X" rather than as code.

export const LOAD_SKILL = 'load_skill';
export const READ_SKILL_FILE = 'read_skill_file';

const LANGUAGES: Record<string, string> = { [LOAD_SKILL]: 'skill:load', [READ_SKILL_FILE]: 'skill:read' };

export const skillTools: ToolSpec[] = [
  {
    name: LOAD_SKILL,
    description:
      'Load one of the skills listed under "# Skills" in the system prompt: returns its instructions (SKILL.md), its folder and its files. Load a skill before doing a task it covers.',
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The skill’s name, as listed.' } },
      required: ['name'],
      additionalProperties: false,
    },
  },
  {
    name: READ_SKILL_FILE,
    description: 'Read a further file of a loaded skill (a reference, a template), by its path inside the skill’s folder.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The skill’s name.' },
        path: { type: 'string', description: 'The file’s path relative to the skill’s folder, e.g. "reference/colors.md".' },
      },
      required: ['name', 'path'],
      additionalProperties: false,
    },
  },
];

/** The cell language recording a call of a skill tool, or null for any other tool. */
export function skillLanguage(toolName: string): string | null {
  return Object.prototype.hasOwnProperty.call(LANGUAGES, toolName) ? (LANGUAGES[toolName] ?? null) : null;
}

/** The tool a recorded skill cell called, or null for any other cell. */
export function skillToolOf(language: string): string | null {
  for (const [tool, lang] of Object.entries(LANGUAGES)) if (lang === language) return tool;
  return null;
}
