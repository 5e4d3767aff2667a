import type { CellItem } from '@contract';
import { nameFromLanguage } from './mcp-names';
import type { ToolSpec } from './provider';
import { skillToolOf } from './skill-tools';
import { planToolOf } from './plan-tools';
import { COMPUTER_LANGUAGE, COMPUTER_TOOL_NAME } from './computer-tool';
import { DELEGATE_LANGUAGE, DELEGATE_TOOL } from './delegate-tool';
import { SCHEDULE_LANGUAGE, SCHEDULE_TOOL } from './schedule-tool';

export const EXECUTE_TOOL_NAME = 'execute';

/** The one tool the model gets: run code in a persistent session on the user's machine. */
export const executeTool: ToolSpec = {
  name: EXECUTE_TOOL_NAME,
  description:
    "Run code on the user's machine in a persistent session for that language (state is kept between runs, like a notebook). " +
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

/**
 * The tool call a cell records, as sent back in history: an MCP cell (language `mcp:<server>/<tool>`,
 * code = its JSON arguments) was a call of `mcp__<server>__<tool>`, a skill cell (`skill:load`, `skill:read`)
 * one of the skill tools; every other cell called execute.
 */
export function toolCallOf(cell: CellItem): { name: string; input: Record<string, unknown> } {
  const mcp = nameFromLanguage(cell.language);
  if (mcp) return { name: mcp, input: jsonObject(cell.code) };
  if (cell.language === COMPUTER_LANGUAGE) return { name: COMPUTER_TOOL_NAME, input: jsonObject(cell.code) };
  const skill = skillToolOf(cell.language) ?? planToolOf(cell.language);
  if (skill) return { name: skill, input: jsonObject(cell.code) };
  if (cell.language === DELEGATE_LANGUAGE) return { name: DELEGATE_TOOL, input: jsonObject(cell.code) };
  if (cell.language === SCHEDULE_LANGUAGE) return { name: SCHEDULE_TOOL, input: jsonObject(cell.code) };
  return { name: EXECUTE_TOOL_NAME, input: { language: cell.language, code: cell.code } };
}

function jsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
