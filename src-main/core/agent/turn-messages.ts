import { EXECUTE_TOOL_NAME } from '../llm/execute-tool';
import type { McpTool } from '../mcp/mcp-manager';
import type { RetryNotice } from '../llm/retry-with-backoff';

// What the turn tells the person in notices, worded once (turn.ts).

export function retryMessage(n: RetryNotice): string {
  const why =
    n.failure.kind === 'rate-limited'
      ? 'The provider is rate-limiting requests'
      : n.failure.kind === 'server'
        ? `The provider answered with a server error (${n.failure.status})`
        : 'The connection to the provider dropped';
  return `${why}; trying again in ${Math.max(1, Math.round(n.delayMs / 1000))} s (attempt ${n.attempt + 1} of ${n.maxAttempts}).`;
}

export function budgetMessage(spent: number, budget: number): string {
  return `This conversation has used $${spent.toFixed(4)} of its $${budget.toFixed(2)} budget, so the agent stopped before calling the model again. Raise or clear the budget in Settings to go on.`;
}

export function noSuchTool(name: string, mcpTools: McpTool[]): string {
  const names = [EXECUTE_TOOL_NAME, ...mcpTools.map((t) => t.name)];
  return names.length === 1
    ? `there is no tool called "${name}"; the only tool is "${EXECUTE_TOOL_NAME}"`
    : `there is no tool called "${name}"; the tools are ${names.map((n) => `"${n}"`).join(', ')}`;
}
