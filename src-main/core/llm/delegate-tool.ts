import { DELEGATE_LANGUAGE } from '@contract';
import type { ToolSpec } from './provider';

// The tool that hands a sub-task to a sub-agent (docs/agent.md#sub-agents). A call is recorded as a
// cell whose language is `agent:delegate` and whose code is the call's JSON arguments, so history
// gives the call back by its name (as skill and MCP cells do) and the UI and CLI show it as a nested
// thread rather than as code.

export const DELEGATE_TOOL = 'delegate';
export { DELEGATE_LANGUAGE };

export const delegateTool: ToolSpec = {
  name: DELEGATE_TOOL,
  description:
    'Hand a self-contained sub-task to a sub-agent with its own context and its own sessions, working in the same folder. ' +
    'Several delegate calls in one reply run at the same time. You get back only its final answer (bounded), not its intermediate outputs, ' +
    'so ask for exactly what you need. Use it for independent parts of a larger task.',
  parameters: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'A short name for the sub-agent, e.g. "tests" or "csv-cleanup".' },
      task: {
        type: 'string',
        description: 'What the sub-agent must do, with everything it needs to know (it does not see this conversation).',
      },
      returns: { type: 'string', description: 'What its final answer must contain, e.g. "the number of rows and the file written".' },
      write: { type: 'boolean', description: 'Whether it may change files in the folder (default false: it may only read).' },
      provider: { type: 'string', description: 'Optional: another configured provider (openai, anthropic, ollama, openai-compatible).' },
      model: { type: 'string', description: 'Optional: the model to use, e.g. a cheaper one.' },
    },
    required: ['name', 'task', 'returns'],
    additionalProperties: false,
  },
};
