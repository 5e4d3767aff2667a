import { errorMessage, type CellItem, type Settings } from '@contract';
import type { EventBus } from '../bridge/event-bus';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import type { ComputerAnswer, ExecService, RunComputer } from '../exec';
import { changesForModel, checkpointAfter, checkpointBefore } from './cell-checkpoints';
import type { LiveConversation } from './live-conversation';
import { runCell } from './run-cell';
import type { HookRunner } from '../hooks/hook-runner';
import { describeCell, hookGuard, needsPersonHooks } from './turn-hooks';
import { undoReadOnlyChanges, withWorkspaceCell } from './subagents/workspace-cell-lock';
import { setAutoRun } from './conversation-changes';
import type { CallContext } from './call-context';

// One code cell of a turn, once the model has written it: the user's approval (or auto-run), then
// the run between the workspace checkpoints, and the text the model reads about it.

/** What running a cell needs of the turn's dependencies (TurnDeps has them all). */
export interface CellRunDeps {
  exec: ExecService;
  events: EventBus;
  checkpoints?: CheckpointService;
  /** The person's hooks, told when the running program asks the person for input. */
  hooks?: HookRunner;
  /** The screen, for `computer.*` in the code (computer-cell.ts's ComputerService); absent: refused. */
  computer?: CodeComputer;
}

/** A check before an action is asked for (the beforeCell hooks): null to go on, or what the model is told. */
export type CellGuard = (cell: CellItem) => Promise<string | null>;

/** What a cell's code needs of computer use (ComputerService, named here by shape: it imports this file). */
export interface CodeComputer {
  codeAction(
    live: LiveConversation,
    events: EventBus,
    settings: Settings,
    parent: CellItem,
    action: Record<string, unknown>,
    signal: AbortSignal,
    guard?: CellGuard,
  ): Promise<ComputerAnswer>;
}

/** An MCP tool the user allowed always: run without asking. */
export function allowedTool(cell: CellItem): 'run' {
  cell.approval = 'auto';
  return 'run';
}

/**
 * Asks the user to approve the cell unless auto-run is on (or a hook asked for the person: `mustAsk`);
 * an edited cell keeps the model's code as modelCode. `onWaiting` hears that the person is needed.
 */
export async function approve(
  live: LiveConversation,
  events: EventBus,
  settings: Settings,
  cell: CellItem,
  signal: AbortSignal,
  /** `onAlways`: what the person's "always" means here instead of auto-run for the conversation (computer use: allow for this task). */
  opts: { mustAsk?: boolean; onWaiting?: () => void; onAlways?: () => void } = {},
): Promise<'run' | 'skip' | 'unasked' | 'stop'> {
  if ((settings.autoRun || live.conv.autoRun) && !opts.mustAsk) {
    cell.approval = 'auto';
    return 'run';
  }
  cell.status = 'awaiting-approval';
  // Wait first, then tell: an in-process listener (the CLI) may answer while the event is emitted.
  const decided = live.approvals.wait(cell.id, signal);
  events.emit('cell.awaiting-approval', { conversationId: live.conv.id, cell });
  opts.onWaiting?.();
  const decision = await decided;
  if (decision.kind === 'skip' && decision.unasked) return 'unasked';
  if (decision.kind !== 'run') return decision.kind;
  if (decision.code !== null && decision.code !== cell.code) {
    // Kept so the cell, the saved conversation and exports can say the user edited it.
    cell.modelCode = cell.code;
    cell.code = decision.code;
  }
  if (decision.always && opts.onAlways) opts.onAlways();
  else if (decision.always && !live.conv.autoRun) {
    setAutoRun(live.conv, events, true);
  }
  cell.approval = 'user';
  return 'run';
}

/**
 * Runs an approved cell between its checkpoints and tells the model what it gave. Returns true when
 * the user interrupted the run (with the cell's Stop, or the turn's).
 */
export function executeCell(
  live: LiveConversation,
  deps: CellRunDeps,
  settings: Settings,
  cell: CellItem,
  signal: AbortSignal,
  /** In a turn's step: the reply's save, on disk before the cell runs, and the step's lists written behind it (call-context.ts). */
  step?: Pick<CallContext, 'recorded' | 'behind'>,
): Promise<boolean> {
  // Sub-agents share their parent's folder: their cells take turns, so each cell's checkpoints hold only its own changes.
  return withWorkspaceCell(
    live,
    () => executeHeldCell(live, deps, settings, cell, signal, step),
    () =>
      // Its session starts before its turn on the workspace: a start writes nothing there, and held the
      // others' cells up for a second or more (docs/agent.md#sub-agents).
      deps.exec.prepare?.({
        conversationId: live.conv.id,
        workspace: live.conv.workspace,
        language: cell.language,
        code: '',
        settings: settings.exec,
        signal,
      }),
  );
}

async function executeHeldCell(
  live: LiveConversation,
  deps: CellRunDeps,
  settings: Settings,
  cell: CellItem,
  signal: AbortSignal,
  step?: Pick<CallContext, 'recorded' | 'behind'>,
): Promise<boolean> {
  const started = Date.now();
  let interruptedByUser = false;
  const [checkpoint] = await Promise.all([checkpointBefore(deps.checkpoints, live.conv, cell), step?.recorded]);
  try {
    const onAsked = (prompt: string) => needsPersonHooks(live, deps, 'input', { cell: describeCell(cell), prompt });
    const screen = deps.computer;
    const computer: RunComputer | undefined = screen
      ? (action, actionSignal) =>
          screen.codeAction(live, deps.events, settings, cell, action, AbortSignal.any([signal, actionSignal]), hookGuard(live, deps))
      : undefined;
    const result = await runCell(
      live,
      cell,
      { exec: deps.exec, events: deps.events, settings, onAsked, ...(computer ? { computer } : {}) },
      signal,
    );
    const changes = await checkpointAfter(deps.checkpoints, live.conv, cell, checkpoint, settings, step?.behind);
    if (changes) cell.changes = changes;
    cell.outputs = result.outputs;
    cell.exitCode = result.exitCode;
    cell.durationMs = result.durationMs;
    cell.limits = result.limits;
    if (result.shell) cell.shell = result.shell;
    if (result.cwd) cell.cwd = result.cwd;
    if (result.envChanges) cell.envChanges = result.envChanges;
    if (result.firstAttempt) cell.firstAttempt = result.firstAttempt;
    if (result.fullOutput) cell.fullOutput = result.fullOutput;
    interruptedByUser = result.status === 'interrupted';
    const undone = await undoReadOnlyChanges(live, deps.checkpoints, cell, changes);
    const told = `${result.forModel}${changes ? changesForModel(changes) : ''}${undone}`;
    const edited = cell.modelCode !== undefined ? `The user edited your code before running it; this ran instead:\n${cell.code}\n\n` : '';
    const stopped = interruptedByUser
      ? `\n\n${signal.aborted ? 'The user stopped the turn during this run.' : 'The user stopped this run (with its Stop button); the turn goes on.'}`
      : '';
    const forModel = `${edited}${told}${stopped}`;
    finishCell(live, deps.events, cell, result.status, forModel);
  } catch (err) {
    cell.durationMs = Date.now() - started;
    finishCell(live, deps.events, cell, 'died', `The run failed inside the app: ${errorMessage(err)}`);
  }
  return interruptedByUser;
}

/** Ends the cell with its status and what the model is told. */
export function finishCell(live: LiveConversation, events: EventBus, cell: CellItem, status: CellItem['status'], forModel: string): void {
  cell.status = status;
  cell.resultForModel = forModel;
  events.emit('cell.done', { conversationId: live.conv.id, cell, status });
}

/**
 * Once a turn ends, no cell stays "streaming", "awaiting approval" or "running": whatever path ended it
 * (a failed call, a stop, an exception), the record says what became of each, in the file, the UI and
 * the CLI alike. A cell that started running keeps what it printed.
 */
export function settleUnfinishedCells(live: LiveConversation, events: EventBus): void {
  for (const item of live.conv.items) {
    if (item.kind !== 'cell') continue;
    if (item.status === 'streaming')
      finishCell(live, events, item, 'interrupted', 'The turn ended before this code was complete; it was not run.');
    else if (item.status === 'awaiting-approval')
      finishCell(live, events, item, 'skipped', 'Not run: the turn ended before it was approved.');
    else if (item.status === 'running') finishCell(live, events, item, 'interrupted', 'The turn ended while this code was running.');
  }
}
