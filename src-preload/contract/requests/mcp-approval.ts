import { z } from 'zod';
import { McpClientName } from '../settings';
import { Empty, type RequestSpec } from './shared';

// `oi mcp` asking the desktop app whether one of its clients may run code or write a file
// (docs/mcp.md#approval-in-the-desktop-app). The question reaches the page as the event
// `mcp-approval.asked`; the person's answer goes back with `mcp-approval.answer`.

/** What a client of `oi mcp` asks to do, as the person sees it before deciding. */
export const McpApprovalQuestion = z.object({
  id: z.string().min(1).max(64),
  /** The name the client gave (its own word: any program can give any name). */
  client: McpClientName,
  clientVersion: z.string().max(256).nullable(),
  kind: z.enum(['execute', 'write_file']),
  /** execute: the language and the code, exactly as they will run. */
  language: z.string().max(64).nullable(),
  code: z.string().max(1_000_000).nullable(),
  /** write_file: the path in the workspace, and the start of what would be written. */
  path: z.string().max(4096).nullable(),
  content: z.string().max(1_000_000).nullable(),
  /** Characters of the content not shown (0 when all of it is). */
  contentOmitted: z.number().int().nonnegative(),
  /** The folder `oi mcp` runs code in and confines files to. */
  workspace: z.string().max(4096),
  askedAt: z.string(),
});

/** once: this call only; always: this call and every later one of this client (saved in settings); deny: refuse it. */
export const McpApprovalDecision = z.enum(['once', 'always', 'deny']);

export const mcpApprovalRequests = {
  /** Questions still waiting (a page that loads after one was asked shows it). */
  'mcp-approval.pending': { input: Empty, output: z.array(McpApprovalQuestion) },
  /** The person's answer; `answered` is false when the question was already gone (answered, or withdrawn by oi mcp). */
  'mcp-approval.answer': {
    input: z.object({ id: z.string().min(1).max(64), decision: McpApprovalDecision }).strict(),
    output: z.object({ answered: z.boolean() }),
  },
} as const satisfies Record<string, RequestSpec>;

export type McpApprovalQuestion = z.infer<typeof McpApprovalQuestion>;
export type McpApprovalDecision = z.infer<typeof McpApprovalDecision>;
