import type { CellItem, Conversation, SandboxSettings } from '@contract';
import type { RunSandbox } from '../../exec';

// What code may do in plan mode (docs/agent.md#plan-mode): read, never change. Every run of a
// conversation in plan mode gets the sandbox whatever the setting says, chosen (so where it cannot
// start nothing runs, rather than running unsandboxed), with the workspace and every extra path bound
// read-only and the network off (the hosts the person allowed still pass through the app's proxy).

export function planModeSandbox(sandbox: SandboxSettings): RunSandbox {
  return {
    ...sandbox,
    enabled: true,
    chosen: true,
    allowNetwork: false,
    extraPaths: sandbox.extraPaths.map((entry) => (entry.endsWith(':rw') ? `${entry.slice(0, -3)}:ro` : entry)),
    workspaceReadOnly: true,
  };
}

/**
 * Why a cell may not run at all in plan mode, or null: an MCP tool (which may change anything, outside
 * the sandbox), or a language bound to a remote Jupyter kernel (which runs outside it).
 */
export function planModeRefusal(conv: Conversation, cell: CellItem, isMcp: boolean): string | null {
  if (!conv.planMode) return null;
  if (isMcp) return 'Not run: in plan mode no MCP tool is called until the person approves a plan (a tool may change things).';
  if (conv.remoteKernel && conv.remoteKernel.language === cell.language)
    return `Not run: in plan mode code runs only in the sandbox, and ${cell.language} runs on a remote Jupyter kernel here.`;
  return null;
}

const WRITE_REFUSED = /Read-only file system|EROFS/;

/** The one sentence a plan-mode cell's result ends with when the sandbox refused what it tried, or ''. */
export function planModeNote(conv: Conversation, cell: CellItem): string {
  if (!conv.planMode) return '';
  if (cell.status === 'unavailable')
    return '\n\nPlan mode runs code only in the sandbox, which cannot start here, so no code runs until the person approves a plan: propose it from what you know.';
  if (WRITE_REFUSED.test(cell.resultForModel ?? ''))
    return '\n\nPlan mode: the workspace is read-only and the network is off until the person approves a plan, so the sandbox refused this write; only read and explore, then propose the plan with propose_plan.';
  return '';
}
