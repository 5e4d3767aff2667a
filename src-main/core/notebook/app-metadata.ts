import { z } from 'zod';
import { Approval, Attachment, CellItem, CellOutput, CellStatus, Id, InstallInfo, NoticeItem, RunLimits } from '@contract';

// What the app keeps under the `oi` key of cell and notebook metadata, so that its own notebooks
// import back into exactly the conversation they came from. Jupyter preserves unknown metadata.

export const APP_KEY = 'oi';

/** Tags export gives a code cell for how its run ended (live-session-export.ts). */
export const RERUN_TAGS: readonly string[] = ['raises-exception', 'skip-execution'];

export const UserCellMeta = z.object({
  role: z.literal('user'),
  createdAt: z.string(),
  /** Every attachment of the message; `embedded` names the cell attachment holding an image's bytes. */
  attachments: z.array(Attachment.extend({ embedded: z.string().nullable() })).default([]),
});

export const AssistantCellMeta = z.object({
  role: z.literal('assistant'),
  step: Id,
  createdAt: z.string(),
  interrupted: z.boolean().default(false),
});

export const NoticeCellMeta = z.object({
  role: z.literal('notice'),
  level: NoticeItem.shape.level,
  createdAt: z.string(),
  /** An automatic install: exported as the code cell that reproduces it (`%pip install …`). */
  install: InstallInfo.optional(),
  /** The notice's own text, kept when the cell's source is the install command. */
  text: z.string().optional(),
});

export const CodeCellMeta = z.object({
  role: z.literal('code'),
  language: z.string().max(64),
  status: CellStatus,
  approval: Approval.nullable(),
  durationMs: z.number().nonnegative().nullable(),
  exitCode: z.number().int().nullable(),
  startedAt: z.string().nullable(),
  step: Id,
  toolCallId: z.string().max(256).nullable().default(null),
  limits: RunLimits.nullable().default(null),
  /** The shell that ran a shell cell (CellItem.shell); decides its magic with the language. */
  shell: CellItem.shape.shell,
  /** The user edited the code before it ran: `editedByUser` says so to any reader, `modelCode` is what the model wrote. */
  editedByUser: z.boolean().optional(),
  modelCode: CellItem.shape.modelCode,
  /** Where the run ended and the variables it exported (CellItem.cwd, envChanges). */
  cwd: CellItem.shape.cwd,
  envChanges: CellItem.shape.envChanges,
  /** Lines export put before the code (a shell cell's `cd` and `export`s); import removes them. */
  prelude: z.number().int().positive().optional(),
  /** The code as the app ran it, when export wrote it with workspace paths made relative. */
  code: z.string().optional(),
  /** An MCP call (language mcp:<server>/<tool>), exported as a markdown cell: its outputs, kept here. */
  mcpOutputs: z.array(CellOutput).optional(),
  /** The MCP server and tool by their real names (CellItem.mcp; the language holds them sanitised). */
  mcp: CellItem.shape.mcp,
});

/**
 * The cell export puts first when the notebook's Python cells use what the app predefines in its
 * sessions (`files`, `HTML`, `Markdown`, `Image`): it defines them, so the notebook runs under a plain
 * Jupyter kernel. Not a conversation item: import leaves it out.
 */
export const HelpersCellMeta = z.object({
  role: z.literal('helpers'),
});

/** The task list export adds at the end (task-list-cell.ts): not a conversation item, so import leaves it out. */
export const TasksCellMeta = z.object({
  role: z.literal('tasks'),
});

/** The heading export puts above a sub-agent's cells (subagent-section.ts): not a conversation item, so import leaves it out. */
export const SubagentCellMeta = z.object({
  role: z.literal('subagent'),
});

export const CellMeta = z.discriminatedUnion('role', [
  UserCellMeta,
  AssistantCellMeta,
  NoticeCellMeta,
  CodeCellMeta,
  HelpersCellMeta,
  TasksCellMeta,
  SubagentCellMeta,
]);

export const NotebookMeta = z.object({
  appVersion: z.string(),
  provider: z.string(),
  model: z.string(),
  conversationId: z.string(),
});

export type UserCellMeta = z.infer<typeof UserCellMeta>;
export type AssistantCellMeta = z.infer<typeof AssistantCellMeta>;
export type NoticeCellMeta = z.infer<typeof NoticeCellMeta>;
export type CodeCellMeta = z.infer<typeof CodeCellMeta>;
export type CellMeta = z.infer<typeof CellMeta>;
export type NotebookMeta = z.infer<typeof NotebookMeta>;
