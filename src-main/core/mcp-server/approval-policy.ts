import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

// Who may run code and write files through `oi mcp`. The client is another agent: its model decides
// what to call, and nobody at the app is asked. So the policy is fixed at start by the person who
// started the server: without --auto-run, execute and write_file are refused (with a message saying
// how to allow them); reading, listing and exporting are always allowed. The desktop app's own
// auto-run setting does not count: it is about the app's model, not about other programs' agents.

export interface ApprovalPolicy {
  /** --auto-run: run code and write files without asking. */
  autoRun: boolean;
}

/** The refusal a tool answers with when the policy does not allow it; null when allowed. */
export function refusalFor(policy: ApprovalPolicy, what: 'run code' | 'write files'): CallToolResult | null {
  if (policy.autoRun) return null;
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text:
          `oi mcp does not ${what} without permission, and nobody is here to ask. ` +
          'The person who configured this server can allow it by adding --auto-run to its arguments ' +
          '(for example `oi mcp --workspace <dir> --auto-run`), preferably with --sandbox. ' +
          'Reading and listing files, listing sessions and exporting the notebook work without it.',
      },
    ],
  };
}
