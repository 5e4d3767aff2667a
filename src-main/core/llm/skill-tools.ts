import type { ToolSpec } from './provider';

// The two tools a model gets when skills are offered (docs/agent.md#skills), and the memory tool
// (docs/agent.md#memory). A call is recorded as a cell whose language is `skill:load`, `skill:read` or
// `memory:save` and whose code is the call's JSON arguments, so history can give the call back by its
// name (as MCP cells do) and the UI and CLI can show it as one line ("Using skill X", "Remembered: …")
// rather than as code.

export const LOAD_SKILL = 'load_skill';
export const READ_SKILL_FILE = 'read_skill_file';
export const SAVE_MEMORY = 'save_memory';

const LANGUAGES: Record<string, string> = { [LOAD_SKILL]: 'skill:load', [READ_SKILL_FILE]: 'skill:read', [SAVE_MEMORY]: 'memory:save' };

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

/** Offered while the `memory` setting is on: a note the person sees saved, given to later conversations. */
export const memoryTool: ToolSpec = {
  name: SAVE_MEMORY,
  description:
    'Save a short note to the person’s memory, given to every later conversation: a lasting preference or fact they will want remembered ("the survey data is in ~/survey; plots in SVG"). Not for this task’s details. The person is shown each note and can edit or remove it.',
  parameters: {
    type: 'object',
    properties: { note: { type: 'string', description: 'The note, one or two sentences (at most 500 characters).' } },
    required: ['note'],
    additionalProperties: false,
  },
};

/** The cell language recording a call of a skill tool, or null for any other tool. */
export function skillLanguage(toolName: string): string | null {
  return Object.prototype.hasOwnProperty.call(LANGUAGES, toolName) ? (LANGUAGES[toolName] ?? null) : null;
}

/** The tool a recorded skill cell called, or null for any other cell. */
export function skillToolOf(language: string): string | null {
  for (const [tool, lang] of Object.entries(LANGUAGES)) if (lang === language) return tool;
  return null;
}
