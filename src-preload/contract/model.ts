import { z } from 'zod';
import { ScheduledMark } from './schedules';
import { ProviderKind } from './settings';
import { Task } from './plan';
import { HostedAgentRef } from './hosted-agents';
import { CellChanges } from './cell-changes';

// The data of a conversation. Outputs use Jupyter's own shapes so notebook export is a mapping,
// not a translation, and so rich output (PNG, HTML) is first class everywhere.

export const Id = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'ids are letters, digits, _ and -');

/** A MIME bundle: 'text/plain' → string, 'image/png' → base64 string, 'application/json' → any JSON. */
export const MimeBundle = z.record(z.string().max(255), z.unknown());

export const StreamOutput = z.object({
  output_type: z.literal('stream'),
  name: z.enum(['stdout', 'stderr']),
  text: z.string(),
  /**
   * The app's own note about the run (interrupted, timed out, the session's state gone), not the
   * program's: the UI shows it as the app's, not as stderr. Kept as stderr so a notebook and the model
   * read it as before; the app's own field, not nbformat's: export leaves it out.
   */
  appNote: z.literal(true).optional(),
  /**
   * Only in the page's copy of a finished cell, never saved: an empty marker standing where this many
   * rows of the text block around it are left out (main sends the page the rows it draws,
   * bridge/page-cells.ts); the page fetches them with `cell.output-rows`.
   */
  rowsLeftOut: z.number().int().positive().optional(),
});
export const DisplayDataOutput = z.object({
  output_type: z.literal('display_data'),
  data: MimeBundle,
  metadata: z.record(z.string(), z.unknown()).default({}),
  /**
   * The display's id (IPython's `display(…, display_id=…)`): a later update with this id replaces this
   * output's data wherever it is in the conversation, as Jupyter front ends do. The app's own field, not
   * nbformat's (Jupyter keeps it in the message's `transient`): export leaves it out.
   */
  displayId: z.string().min(1).max(256).optional(),
});

/** An update of every display with this id (IPython's `update_display`, `handle.update`). */
export const DisplayUpdate = z.object({
  displayId: z.string().min(1).max(256),
  data: MimeBundle,
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export const ExecuteResultOutput = z.object({
  output_type: z.literal('execute_result'),
  execution_count: z.number().int().nullable(),
  data: MimeBundle,
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export const ErrorOutput = z.object({
  output_type: z.literal('error'),
  ename: z.string(),
  evalue: z.string(),
  traceback: z.array(z.string()),
});
/** A project-instructions file (AGENTS.md, CLAUDE.md) found for a conversation's workspace. */
export const InstructionFile = z.object({
  /** Absolute path. */
  path: z.string(),
  /** The person's own file (data folder), or one from the workspace and its parents up to the repository root. */
  scope: z.enum(['user', 'workspace']),
  bytes: z.number().int().nonnegative(),
  /** Given to the model: the person's own always, the workspace's once the person trusts its folder. */
  used: z.boolean(),
  /** Longer than the app gives it: the model read the start. */
  cut: z.boolean(),
});

export const CellOutput = z.discriminatedUnion('output_type', [StreamOutput, DisplayDataOutput, ExecuteResultOutput, ErrorOutput]);

export const Attachment = z.object({
  /** Path relative to the conversation's workspace (attachments live under attachments/). */
  path: z.string().min(1).max(4096),
  name: z.string().max(1024),
  mime: z.string().max(255),
  size: z.number().int().nonnegative(),
  /** Read from an MCP server's resource (docs/mcp.md): the model is told whose data it is. */
  mcpResource: z.object({ server: z.string().max(64), uri: z.string().max(4096) }).optional(),
});

export const CellStatus = z.enum([
  'streaming', // the model is still writing the code
  'awaiting-approval',
  'running',
  'done', // ran and exited 0
  'failed', // ran and failed (non-zero exit, exception)
  'timeout',
  'interrupted',
  'died', // the runner process died (segfault, kill -9, out of memory)
  'skipped', // the user declined
  'unavailable', // the language's runtime is missing
]);

export const Approval = z.enum(['user', 'auto', 'declined']);

/** Limits in force for a run, shown with every cell. */
export const RunLimits = z.object({
  timeoutMs: z.number().int().positive(),
  memoryMb: z.number().int().positive().nullable(),
  cpuSeconds: z.number().int().positive().nullable(),
  maxProcesses: z.number().int().positive().nullable(),
  sandbox: z.string().nullable(),
  /** Where the run happened when not on this machine: 'remote Jupyter kernel "Python 3" at https://…'. */
  location: z.string().nullable().optional(),
});

/**
 * What a notebook cell carried that the item has no field for, kept so export writes it back as it
 * came in (docs/notebooks.md, "Lossless round trip"). Set on items imported from a notebook.
 */
export const JupyterCellOrigin = z.object({
  /**
   * The cell's type when it did not come from this app: export writes that cell as Jupyter had it
   * (a never-run code cell stays a code cell, a markdown cell gets no app metadata). Absent for the
   * app's own cells, whose other metadata keys are all that needed keeping.
   */
  cellType: z.enum(['markdown', 'code', 'raw']).optional(),
  /** Every metadata key of the cell except the app's own `oi` (tags, collapsed, slideshow, format…). */
  metadata: z.record(z.string(), z.unknown()).default({}),
  /** The cell's attachments as the file had them (markdown and raw cells). */
  attachments: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  /** The markdown source as written, when the item's text differs (attachment links rewritten for display). */
  source: z.string().optional(),
  /** The leading cell magic line the import removed to set the language (`%%sh\n`, `%%script bash\n`), line break included. */
  magic: z.string().optional(),
});

export const UserItem = z.object({
  kind: z.literal('user'),
  id: Id,
  text: z.string(),
  attachments: z.array(Attachment).default([]),
  createdAt: z.string(),
  jupyter: JupyterCellOrigin.optional(),
});

export const ThinkingBlock = z.object({ thinking: z.string(), signature: z.string() });

export const AssistantItem = z.object({
  kind: z.literal('assistant'),
  id: Id,
  /** One model response may produce text and cells; they share a step id so history can be rebuilt. */
  step: Id,
  text: z.string(),
  thinking: z.array(ThinkingBlock).default([]),
  interrupted: z.boolean().default(false),
  createdAt: z.string(),
  jupyter: JupyterCellOrigin.optional(),
});

/** Text formats of tool calls that local models write (docs/agent.md#local-models). */
export const TextCallDialect = z.enum(['hermes', 'qwen-xml', 'llama', 'mistral', 'deepseek', 'json']);
export type TextCallDialect = z.infer<typeof TextCallDialect>;

// What a cell changed in its workspace (checkpoints) lives in cell-changes.ts; re-exported here.
export { CellChanges, FileChange, Unrestorable } from './cell-changes';

export const CellItem = z.object({
  kind: z.literal('cell'),
  id: Id,
  step: Id,
  toolCallId: z.string().max(256).nullable(),
  language: z.string().max(64),
  code: z.string(),
  status: CellStatus,
  approval: Approval.nullable(),
  outputs: z.array(CellOutput).default([]),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().nonnegative().nullable(),
  executionCount: z.number().int().nullable(),
  startedAt: z.string().nullable(),
  limits: RunLimits.nullable(),
  /** What the model was told about this run (trimmed head + tail); the UI shows `outputs`. */
  resultForModel: z.string().nullable(),
  /**
   * The outputs came from a notebook file, not from a run in this app: like an untrusted notebook in
   * Jupyter, their HTML is shown without running its scripts until the cell is run again.
   */
  imported: z.boolean().optional(),
  /**
   * The shell that really ran a shell cell: a `shell` cell follows $SHELL or exec.shell, and a `zsh`
   * cell runs in bash when zsh is missing. Absent for other languages, for runs on a remote kernel
   * and in files written before it was recorded.
   */
  shell: z.enum(['bash', 'zsh']).optional(),
  /**
   * The working directory the run ended in, as its session reported it, and the exported variables
   * a shell run set (a value) or unset (null): notebook export starts each exported shell cell in the
   * directory and with the variables its session had (docs/notebooks.md).
   */
  cwd: z.string().max(4096).optional(),
  envChanges: z.record(z.string().max(256), z.string().nullable()).optional(),
  /**
   * The run failed for want of a package, which was installed, and the cell ran again: the first
   * `outputs` outputs (the failed attempt and the install's log) are shown collapsed under `summary`
   * ("first attempt: ModuleNotFoundError: No module named 'requests'"), the re-run as the result.
   */
  firstAttempt: z.object({ outputs: z.number().int().nonnegative(), summary: z.string().max(1000) }).optional(),
  /**
   * The output passed the cap: the cell keeps its head and tail, and the whole output is this
   * workspace file (`.oi/outputs/<run>.log`), which the cell's "full output (4.4 MB)" opens in the preview.
   */
  fullOutput: z.object({ path: z.string().max(4096), bytes: z.number().nonnegative(), lines: z.number().int().nonnegative() }).optional(),
  /**
   * The model wrote this call as text in its own format (a local model whose server sent no native
   * tool call); the history gives it back, and its result, in that format. Absent for native calls
   * and fenced code blocks.
   */
  callDialect: TextCallDialect.optional(),
  jupyter: JupyterCellOrigin.optional(),
  /** What the run changed in the workspace, from the checkpoints taken around it (docs/checkpoints.md). */
  changes: CellChanges.optional(),
  /**
   * The user changed the code before running it ("Edit", then run): `code` is what ran, and this is
   * what the model wrote. Absent when the code ran as the model wrote it.
   */
  modelCode: z.string().optional(),
  /**
   * An MCP call: the server and tool by their real names. `language` (`mcp:<server>/<tool>`) holds
   * them sanitised for the model, so two tools can share it; a choice such as "always allow" must
   * name the real tool. Absent for code and for calls recorded before it was kept.
   */
  mcp: z.object({ server: z.string().max(64), tool: z.string().max(256) }).optional(),
  /** A `delegate` call (docs/agent.md#sub-agents): the sub-agent's conversation, its name, state and spending. */
  subagent: z.lazy(() => SubagentInfo).optional(),
  fromCell: Id.optional(), // the cell whose code asked for this screen action (docs/computer-use.md#in-code); never sent as a call
});

/** Notices the app adds to a conversation (history trimmed, budget reached, provider error). */
/** A package the app installed for the code (automatic install), so exports can reproduce it. */
export const InstallInfo = z.object({
  manager: z.enum(['pip', 'npm', 'apt', 'dnf', 'pacman', 'brew', 'winget']),
  packages: z.array(z.string()),
  command: z.string(),
  ok: z.boolean(),
});

export const NoticeItem = z.object({
  kind: z.literal('notice'),
  id: Id,
  level: z.enum(['info', 'warning', 'error']),
  text: z.string(),
  createdAt: z.string(),
  install: InstallInfo.optional(),
  /** The user moved the conversation to another folder here; the model is told at this point of the history. */
  workspaceChange: z.object({ from: z.string(), to: z.string() }).optional(),
  /** The user rewound the workspace's files to before this cell; the model is told, like a move. */
  rewind: z.object({ cellId: z.string(), changedPaths: z.number().int().nonnegative() }).optional(),
  jupyter: JupyterCellOrigin.optional(),
  schedule: z.object({ id: z.string(), name: z.string() }).optional(), // a task approved here (docs/schedules.md)
});

export const ConversationItem = z.discriminatedUnion('kind', [UserItem, AssistantItem, CellItem, NoticeItem]);

export const Usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});

/** A provider, one of its models, and the endpoint (null → the provider's own). */
export const ModelChoice = z.object({
  provider: ProviderKind,
  model: z.string().min(1).max(256),
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable(),
});

export const ConversationSummary = z.object({
  id: Id,
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  workspace: z.string(),
  /** Set on the conversation `oi mcp` records an MCP client's runs in: the client's name. `oi -c` passes it over. */
  mcpClient: z.string().max(200).optional(),
  /** Set on the conversation a scheduled task's run made (docs/schedules.md): which task, and what started it. */
  scheduled: ScheduledMark.optional(),
  /** Set on a sub-agent's own conversation: the conversation and `delegate` cell that started it (the list marks it). */
  parent: z.object({ conversationId: Id, cellId: Id, name: z.string().max(64) }).optional(),
});

/** The remote Jupyter kernel a conversation's language runs on, kept so it survives an app restart (no token: that is in the keychain). */
export const RemoteKernelBinding = z.object({
  url: z.string(),
  kernelName: z.string(),
  displayName: z.string().optional(),
  language: z.string(),
  /** The kernel last used on the server, reattached when it still exists. */
  kernelId: z.string().nullable(),
});

/** The notebook a conversation was imported from: what export needs to write it back unchanged. */
export const NotebookOrigin = z.object({
  /** 0–5; export keeps it, so a 4.4 notebook is written back as 4.4 (without cell ids). */
  nbformatMinor: z.number().int().min(0).max(5),
  /** The notebook's metadata except the app's own `oi` key: kernelspec, language_info, widgets, jupytext… */
  metadata: z.record(z.string(), z.unknown()),
  /** The title the import gave the conversation; a different title now is written as metadata.title. */
  title: z.string(),
  /** The file was written by this app: its kernelspec follows the conversation's main language. */
  fromApp: z.boolean(),
});

/** Where a sub-agent stands, as its parent's `delegate` cell records it. */
export const SubagentStatus = z.enum(['waiting', 'running', 'done', 'failed', 'stopped', 'budget']);
export const SubagentInfo = z.object({
  conversationId: Id,
  name: z.string().max(64),
  status: SubagentStatus,
  provider: z.string().max(64),
  model: z.string().max(256),
  mayWrite: z.boolean(),
  usage: Usage,
  /** The estimate shown before it started (null: the model's price is unknown). */
  estimateUsd: z.number().nonnegative().nullable(),
});

export const Conversation = ConversationSummary.extend({
  version: z.literal(1),
  items: z.array(ConversationItem),
  usage: Usage,
  /** "Always run in this conversation". */
  autoRun: z.boolean().default(false),
  /** The person turned computer use on for this conversation (docs/computer-use.md); absent: off. */
  computerUse: z.boolean().optional(),
  remoteKernel: RemoteKernelBinding.nullable().optional(),
  /** The model it talks to: recorded at its first message, changed by the model picker; absent → settings. */
  modelChoice: ModelChoice.optional(),
  /** Set when the conversation was imported from a notebook. */
  notebook: NotebookOrigin.optional(),
  /** Plan mode (docs/agent.md#plan-mode): code runs with the workspace read-only until a plan is approved. */
  planMode: z.boolean().optional(),
  /** The profile its settings come from (docs/agent.md#profiles), by name in the data folder; absent: Settings. */
  profile: z.string().max(64).optional(),
  /** The live task list the model keeps (docs/agent.md#task-list); absent until it adds a step. */
  tasks: z.array(Task).max(100).optional(),
  /** Answered by an outside ACP agent instead of ours (docs/acp.md#hosting): which, and its session. */
  hostedAgent: HostedAgentRef.optional(),
});
export type CellOutput = z.infer<typeof CellOutput>;
export type InstructionFile = z.infer<typeof InstructionFile>;
export type DisplayUpdate = z.infer<typeof DisplayUpdate>;
export type Attachment = z.infer<typeof Attachment>;
export type CellStatus = z.infer<typeof CellStatus>;
export type RunLimits = z.infer<typeof RunLimits>;
export type UserItem = z.infer<typeof UserItem>;
export type AssistantItem = z.infer<typeof AssistantItem>;
export type CellItem = z.infer<typeof CellItem>;
export type NoticeItem = z.infer<typeof NoticeItem>;
export type InstallInfo = z.infer<typeof InstallInfo>;
export type ConversationItem = z.infer<typeof ConversationItem>;
export type ConversationSummary = z.infer<typeof ConversationSummary>;
export type Conversation = z.infer<typeof Conversation>;
export type ModelChoice = z.infer<typeof ModelChoice>;
export type RemoteKernelBinding = z.infer<typeof RemoteKernelBinding>;
export type JupyterCellOrigin = z.infer<typeof JupyterCellOrigin>;
export type NotebookOrigin = z.infer<typeof NotebookOrigin>;
export type Usage = z.infer<typeof Usage>;
export type SubagentInfo = z.infer<typeof SubagentInfo>;
export type SubagentStatus = z.infer<typeof SubagentStatus>;
