import { z } from 'zod';
import {
  AssistantItem,
  CellItem,
  CellOutput,
  CellStatus,
  ConversationItem,
  ConversationSummary,
  DisplayUpdate,
  Id,
  ModelChoice,
  NoticeItem,
  RunLimits,
  SubagentInfo,
  Usage,
} from './model';
import { NotebookRerunOutcome } from './requests/notebook';
import { Settings } from './settings';
import { ModelCapability } from './requests/models';
import { McpApprovalQuestion } from './requests/mcp-approval';
import { Task } from './plan';

// Every event main sends to the renderer: name → payload schema. Events are only ever sent by main,
// so they are validated in tests rather than on every send (output bursts are hot) — and main never
// builds these schemas: they are built on the first call of eventSchemas(), and eventNames (the
// preload's list) is marked pure, so a bundle that uses neither leaves them out (building them was
// about a tenth of `oi -m`'s start before its first model request; bench/startup.bench.ts).

const Conv = { conversationId: Id };

const buildEventSchemas = () =>
  ({
    /** An item was added to a conversation (user message, assistant text, cell, notice). */
    'item.added': z.object({ ...Conv, item: ConversationItem }),
    'assistant.delta': z.object({ ...Conv, itemId: Id, text: z.string() }),
    /** Thinking text streamed into the item's `thinking[block]` (its signature comes with `assistant.done`). */
    'assistant.thinking-delta': z.object({ ...Conv, itemId: Id, block: z.number().int().nonnegative(), text: z.string() }),
    'assistant.done': z.object({ ...Conv, item: AssistantItem }),
    /** The model is writing code: `code` is the whole code so far (parsed from partial tool arguments). */
    'cell.code': z.object({ ...Conv, cellId: Id, language: z.string(), code: z.string() }),
    'cell.awaiting-approval': z.object({ ...Conv, cell: CellItem }),
    'cell.running': z.object({
      ...Conv,
      cellId: Id,
      code: z.string(),
      startedAt: z.string(),
      limits: RunLimits,
      executionCount: z.number().int(),
    }),
    /** Raw terminal bytes (as text) for the cell's terminal view, batched. */
    'cell.terminal': z.object({ ...Conv, cellId: Id, data: z.string() }),
    /** A structured output (rich display, execute_result, error). */
    'cell.output': z.object({ ...Conv, cellId: Id, output: CellOutput }),
    /** Every display with this id in the conversation shows the new data (running cell and earlier ones). */
    'cell.display-updated': z.object({ ...Conv, update: DisplayUpdate }),
    'cell.done': z.object({ ...Conv, cell: CellItem, status: CellStatus }),
    /**
     * The running cell's program waits for input (docs/exec.md#input): answered with `cell.input`.
     * `mode` 'keys' is a full-screen or keypress program, best answered by typing into the terminal.
     */
    'cell.input-requested': z.object({
      ...Conv,
      cellId: Id,
      questionId: Id,
      prompt: z.string(),
      password: z.boolean(),
      mode: z.enum(['line', 'keys']),
      /** The program that waits at the terminal (`sudo`), when known. */
      command: z.string().nullable(),
    }),
    /** The question is over: answered, ended by the person, or withdrawn (the program stopped waiting, the run ended). Never carries the answer. */
    'cell.input-closed': z.object({ ...Conv, cellId: Id, questionId: Id, how: z.enum(['answered', 'ended', 'withdrawn']) }),
    'turn.start': z.object({ ...Conv }),
    'turn.end': z.object({
      ...Conv,
      reason: z.enum(['done', 'stopped', 'error', 'attempts-exhausted', 'budget', 'awaiting-user']),
      usage: Usage,
    }),
    notice: z.object({ ...Conv, item: NoticeItem }),
    /** A scheduled run ended (its own oi process; core/schedules/run-watch.ts): its conversation, if it started one. */
    'schedule.run-ended': z.object({
      conversationId: Id.nullable(),
      scheduleId: z.string(),
      name: z.string(),
      result: z.string(),
      costUsd: z.number(),
    }),
    /** The capability probe answered for a model (ModelCapability in requests/models.ts). */
    'model.capability': z.object({ provider: z.string(), baseUrl: z.string().nullable(), model: z.string(), capability: ModelCapability }),
    /** Progress of `ollama.pull`: Ollama's status line, and bytes when it is downloading. */
    'ollama.pull-progress': z.object({
      model: z.string(),
      status: z.string(),
      completed: z.number().nonnegative().nullable(),
      total: z.number().nonnegative().nullable(),
    }),
    /** A run failed on a missing package: install it? Answered with `install.answer`. */
    'install.awaiting-approval': z.object({
      ...Conv,
      questionId: Id,
      cellId: Id.nullable(),
      kind: z.enum(['pip', 'npm', 'system']),
      packages: z.array(z.string()),
      command: z.string(),
      reason: z.string(),
      text: z.string(),
    }),
    'install.answered': z.object({ ...Conv, questionId: Id, install: z.boolean() }),
    /**
     * Sandboxed code asked for a host the proxy does not let through yet (docs/sandbox.md, "Network"):
     * allow it? Answered with `network.answer`; the connection waits meanwhile.
     */
    'network.awaiting-approval': z.object({ ...Conv, questionId: Id, cellId: Id.nullable(), host: z.string(), port: z.number().int() }),
    'network.answered': z.object({ ...Conv, questionId: Id, host: z.string(), allowed: z.boolean() }),
    /** Main changed the settings by itself (a host allowed for good from a network question): the new ones. */
    'settings.changed': z.object({ settings: Settings }),
    /** After each model call: the conversation's running totals, and how full the context window is. */
    'usage.updated': z.object({
      ...Conv,
      usage: Usage,
      contextTokens: z.number().int().nonnegative(),
      contextWindow: z.number().int().positive(),
    }),
    'conversation.updated': z.object({ summary: ConversationSummary }),
    /** The open conversation's own fields changed: its title, the model it talks to, its folder, its last activity (agent/conversation-changes.ts). */
    'conversation.changed': z.object({
      ...Conv,
      change: z.object({ title: z.string(), modelChoice: ModelChoice, workspace: z.string(), updatedAt: z.string() }).partial(),
    }),
    /** The desktop app opened a notebook the OS handed it (electron/open-notebooks.ts): show its conversation. */
    'conversation.show': z.object({ ...Conv }),
    /** "Always run in this conversation" changed ("Always run here" on a cell, or the chip turning it off). */
    'conversation.auto-run': z.object({ ...Conv, autoRun: z.boolean() }),
    /** Plan mode turned on or off (the switch, `/plan`, or an approved plan leaving it). */
    'conversation.plan-mode': z.object({ ...Conv, planMode: z.boolean() }),
    /** The task list changed (the model's task tool, or an approved plan seeding it): the whole list. */
    'tasks.updated': z.object({ ...Conv, tasks: z.array(Task) }),
    /** Computer use turned on or off for the conversation (docs/computer-use.md). */
    'conversation.computer-use': z.object({ ...Conv, on: z.boolean() }),
    /** The agent has the screen (the banner shows) or gave it back (the turn ended). */
    'computer.control': z.object({ ...Conv, active: z.boolean() }),
    /** One computer action: waiting for approval, being done, done, declined, or refused (the text says why). */
    'computer.action': z.object({
      ...Conv,
      cellId: Id,
      text: z.string(),
      phase: z.enum(['asking', 'doing', 'done', 'declined', 'refused']),
    }),
    /** Files in the conversation's workspace changed (batched; paths relative, '/'-separated). */
    'workspace.changed': z.object({ ...Conv, paths: z.array(z.string()) }),
    /** Re-running a notebook's cells: cell k of n started (status 'running') or ended (its run status). */
    'notebook.rerun-progress': z.object({
      ...Conv,
      k: z.number().int().positive(),
      n: z.number().int().positive(),
      cellId: Id,
      status: z.union([z.literal('running'), CellStatus]),
    }),
    /** The re-run ended: every cell ran, it stopped at a cell that did not finish cleanly, or was cancelled. */
    'notebook.rerun-done': z.object({
      ...Conv,
      outcome: NotebookRerunOutcome,
      n: z.number().int().nonnegative(),
      /** The cell it stopped at (1-based k), when it stopped. */
      stoppedAt: z.object({ k: z.number().int().positive(), cellId: Id, status: CellStatus }).nullable(),
      /** 0-based index to pass as startAt to continue, or null when nothing is left. */
      nextIndex: z.number().int().nonnegative().nullable(),
      /** Why it failed, when the outcome is 'failed'. */
      message: z.string().nullable(),
      /** The cells it did not reach (stopped, cancelled or failed first): their outputs are from before. */
      notRun: z.array(Id),
    }),
    /** An MCP server's state or tools changed (Settings asks mcp.status again). */
    'mcp.changed': z.object({ name: z.string() }),
    /** A client of `oi mcp` asks to run code or write a file: answered with `mcp-approval.answer`. */
    'mcp-approval.asked': McpApprovalQuestion,
    /** The question is over: answered (here or in another window), or withdrawn (oi mcp stopped waiting). Never carries the answer. */
    'mcp-approval.closed': z.object({ id: z.string(), how: z.enum(['answered', 'withdrawn']) }),
    /**
     * Sub-agents (docs/agent.md#sub-agents), on the parent conversation: `subagent.estimate` before any
     * starts (each one's estimate and the total), `subagent.updated` as one starts, spends or ends. The
     * sub-agent's own items and cells come as ordinary events under its own conversation id.
     */
    'subagent.estimate': z.object({
      ...Conv,
      subagents: z.array(z.object({ cellId: Id, name: z.string(), model: z.string(), estimateUsd: z.number().nullable() })),
      totalUsd: z.number().nullable(),
      budgetLeftUsd: z.number().nullable(),
    }),
    'subagent.updated': z.object({ ...Conv, cellId: Id, subagent: SubagentInfo }),
    error: z.object({ conversationId: Id.nullable(), message: z.string(), code: z.string() }),
  }) as const satisfies Record<string, z.ZodType>;

export type Events = ReturnType<typeof buildEventSchemas>;
export type EventName = keyof Events;
export type EventPayload<N extends EventName> = z.infer<Events[N]>;

let built: Events | null = null;
/** The payload schema of every event, built on first use. */
export function eventSchemas(): Events {
  return (built ??= buildEventSchemas());
}
export const eventNames = /* @__PURE__ */ Object.keys(/* @__PURE__ */ eventSchemas()) as EventName[];

/** One envelope for every event, so a transport can forward them without knowing their names. */
export type AnyEvent = { [N in EventName]: { name: N; payload: EventPayload<N> } }[EventName];
