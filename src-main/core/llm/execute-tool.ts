import type { ToolSpec } from './provider';

export const EXECUTE_TOOL_NAME = 'execute';

/** The one tool the model gets: run code in a persistent session on the user's machine. */
export const executeTool: ToolSpec = {
  name: EXECUTE_TOOL_NAME,
  description:
    'Run code on the user\'s machine in a persistent session for that language (state is kept between runs, like a notebook). ' +
    'Returns the output, rich results and the exit status.',
  parameters: {
    type: 'object',
    properties: {
      language: { type: 'string', description: 'python, javascript, shell, r, ruby, powershell, applescript, java or html' },
      code: { type: 'string', description: 'The code to run.' },
    },
    required: ['language', 'code'],
    additionalProperties: false,
  },
};
