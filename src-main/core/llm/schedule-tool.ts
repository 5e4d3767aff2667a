import { SCHEDULE_LANGUAGE, SCHEDULE_TOOL } from '@contract';
import type { ToolSpec } from './provider';

// The tool that proposes a scheduled task from a conversation (docs/schedules.md#from-a-conversation):
// "run this again every Monday". A call makes nothing by itself: the person approves the task on its
// card (or at oi's y/n question), and auto-run never does. Its options are `oi schedule add`'s, named
// without the dashes (contract/schedule-when.ts reads both alike).

export { SCHEDULE_LANGUAGE, SCHEDULE_TOOL };

export const scheduleTool: ToolSpec = {
  name: SCHEDULE_TOOL,
  description:
    'Propose a scheduled task: a prompt that runs again later by itself, with nobody watching (e.g. "every Monday at 9:00, summarise the logs"). ' +
    'The person is shown exactly what will run, when, where and how, and approves or declines; nothing is scheduled until they approve. ' +
    'Use it only when the person asks for something to happen again or later. Each run is a new conversation that does not see this one, ' +
    'so the prompt must say everything the run needs. Say when with one of: days+at, every, once, folder, manual.',
  parameters: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'A short name, e.g. "Monday report".' },
      prompt: { type: 'string', description: 'What each run asks the agent, complete on its own.' },
      workspace: { type: 'string', description: 'The absolute folder each run works in (default: this conversation’s folder).' },
      days: { type: 'string', description: 'Days it runs: "mon,thu", "weekdays" or "daily"; goes with "at".' },
      at: { type: 'string', description: 'Time of day, HH:MM on a 24-hour clock, local time (with "days").' },
      every: { type: 'string', description: 'An interval from midnight: "15m" (N divides 60) or "2h" (N divides 24).' },
      once: { type: 'string', description: 'One moment, YYYY-MM-DDTHH:MM local time.' },
      folder: { type: 'string', description: 'Run when a new file appears in this absolute folder (while the app is open).' },
      manual: { type: 'boolean', description: 'Only when started by the person (Run now, oi schedule run).' },
      report: { type: 'boolean', description: 'Refuse all code: the run only reports (default false: code runs without asking).' },
      sandbox: { type: 'boolean', description: 'Run the code in the sandbox (default true; false only if the person asked).' },
      budget: { type: 'number', description: 'Dollars a run may spend (default 1).' },
      time_limit: { type: 'number', description: 'Minutes a run may take (default 30).' },
      profile: { type: 'string', description: 'A profile each run starts with (default: this conversation’s, if any).' },
    },
    required: ['name', 'prompt'],
    additionalProperties: false,
  },
};
