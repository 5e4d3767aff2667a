import { PLAN_LANGUAGE, TASKS_LANGUAGE } from '@contract/plan-text';
import type { ToolSpec } from './provider';

// The two tools of plan mode and the task list (docs/agent.md#plan-mode, #task-list). A call is
// recorded as a cell whose language is `plan:propose` or `tasks:update` and whose code is the call's
// JSON arguments (as skill and MCP calls are), so history gives the call back by its name and the UI
// and the CLI show a plan card or a task line instead of code.

export const PROPOSE_PLAN = 'propose_plan';
export const UPDATE_TASKS = 'update_tasks';

/** Steps a plan or one call of the task tool may hold, and the length of one. */
export const MAX_STEPS = 50;
export const MAX_STEP_CHARS = 200;

const LANGUAGES: Record<string, string> = { [PROPOSE_PLAN]: PLAN_LANGUAGE, [UPDATE_TASKS]: TASKS_LANGUAGE };

export const proposePlanTool: ToolSpec = {
  name: PROPOSE_PLAN,
  description:
    'Plan mode only: propose your plan to the person as a short checklist of steps. They approve it (perhaps edited), which ' +
    'ends plan mode so you can carry it out, or reject it with a reason. Look around first (read files, run code that changes nothing).',
  parameters: {
    type: 'object',
    properties: {
      steps: {
        type: 'array',
        items: { type: 'string', description: `One short step (at most ${MAX_STEP_CHARS} characters).` },
        description: `The plan's steps in order (1 to ${MAX_STEPS}).`,
      },
    },
    required: ['steps'],
    additionalProperties: false,
  },
};

export const updateTasksTool: ToolSpec = {
  name: UPDATE_TASKS,
  description:
    'Keep a short task list the person sees pinned above the conversation. "add" appends steps (short titles); "start" marks ' +
    'steps as being worked on, "done" as finished, "drop" as given up, by their numbers. Use it for work of several steps: ' +
    'start a step before its code, mark it done after. Returns the whole list.',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['add', 'start', 'done', 'drop'] },
      steps: { type: 'array', items: { type: 'string' }, description: 'For "add": the new steps, in order.' },
      ids: { type: 'array', items: { type: 'integer' }, description: 'For "start", "done" and "drop": the steps’ numbers.' },
    },
    required: ['action'],
    additionalProperties: false,
  },
};

/** The cell language recording a call of a plan or task tool, or null for any other tool. */
export function planLanguage(toolName: string): string | null {
  return Object.prototype.hasOwnProperty.call(LANGUAGES, toolName) ? (LANGUAGES[toolName] ?? null) : null;
}

/** The tool a recorded plan or task cell called, or null for any other cell. */
export function planToolOf(language: string): string | null {
  for (const [tool, lang] of Object.entries(LANGUAGES)) if (lang === language) return tool;
  return null;
}
