import { errorMessage, type CellItem, type CellOutput, type Settings } from '@contract';
import { summaryOf, type AgentService } from '../agent/agent-service';
import { applyDisplayUpdate } from '../agent/display-updates';
import type { LiveConversation } from '../agent/live-conversation';
import { limitsFromSettings } from '../agent/run-cell';
import { touch } from '../agent/conversation-changes';
import type { EventBus } from '../bridge/event-bus';
import type { ConversationStore } from '../conversations/conversation-store';
import type { ExecService, RunRequest } from '../exec';
import { applyRunResult, rerunCells, rerunnableCells, type RerunOutcome, type RerunProgress } from './rerun';

// "Re-run all cells" in an open conversation: rerunCells does the running; this adds what the app
// around it needs — one re-run per conversation, never beside an agent turn, the cells' live state
// and output streamed as the usual cell events (so the chat shows them like any run), progress as
// notebook.rerun-progress and the end as notebook.rerun-done.

export interface LiveRerunDeps {
  agent: Pick<AgentService, 'open' | 'isRunning'>;
  conversations: Pick<ConversationStore, 'save'>;
  exec: ExecService;
  events: EventBus;
  settings: () => Settings;
}

export class LiveReruns {
  /** The abort controller of each conversation's re-run in progress. */
  private readonly active = new Map<string, AbortController>();

  constructor(private readonly deps: LiveRerunDeps) {}

  /** Starts re-running from the `startAt`-th cell; returns once it has started. */
  async start(conversationId: string, startAt = 0): Promise<{ n: number; startAt: number }> {
    const live = await this.deps.agent.open(conversationId);
    // Checked after the await and set before the next one, so two quick requests cannot both start.
    if (this.active.has(conversationId)) throw new Error('the cells are already re-running in this conversation; stop that first');
    if (this.deps.agent.isRunning(conversationId))
      throw new Error('cannot re-run the cells while the agent is working: stop the turn first');
    const cells = rerunnableCells(live.conv.items);
    if (cells.length === 0) throw new Error('this conversation has no code cells to re-run');
    if (startAt >= cells.length) {
      throw new Error(`startAt ${startAt} is past the last cell: there are ${cells.length} cells to re-run, numbered from 0`);
    }
    const controller = new AbortController();
    this.active.set(conversationId, controller);
    // Held open while it runs: its cells and the saves go to this copy (an idle sweep must not drop it).
    const release = live.hold();
    void this.run(live, cells, startAt, controller)
      .catch((err: unknown) => {
        this.deps.events.emit('error', { conversationId, message: `the re-run failed: ${errorMessage(err)}`, code: 'rerun-failed' });
      })
      .finally(() => {
        release();
        if (this.active.get(conversationId) === controller) this.active.delete(conversationId);
      });
    return { n: cells.length, startAt };
  }

  /** Interrupts the running cell and runs no more; false when nothing was re-running. */
  stop(conversationId: string): boolean {
    const controller = this.active.get(conversationId);
    controller?.abort();
    return !!controller;
  }

  isRunning(conversationId: string): boolean {
    return this.active.has(conversationId);
  }

  private async run(live: LiveConversation, cells: CellItem[], startAt: number, controller: AbortController): Promise<void> {
    const { events } = this.deps;
    const conversationId = live.conv.id;
    const settings = this.deps.settings();
    // The cell being run now, as the chat shows it; set and cleared by onProgress.
    const now: { running: { cell: CellItem; startedAt: string } | null } = { running: null };
    const exec = streamingTo(this.deps.exec, () => now.running?.cell.id ?? null, {
      onTerminal: (cellId, data) => events.emit('cell.terminal', { conversationId, cellId, data }),
      onOutput: (cellId, output) => events.emit('cell.output', { conversationId, cellId, output }),
    });

    // How many cells the re-run has reached (started), counting those before startAt as reached before.
    let reached = startAt;
    const onProgress = ({ k, n, cell, result }: RerunProgress): void => {
      reached = Math.max(reached, k);
      if (result === null) {
        const startedAt = new Date().toISOString();
        const limits = limitsFromSettings(settings);
        // The count rerunCells gives the run: the notebook's numbering, 1..n.
        const executionCount = k;
        const shown: CellItem = {
          ...cell,
          status: 'running',
          startedAt,
          executionCount,
          limits,
          outputs: [],
          exitCode: null,
          durationMs: null,
        };
        now.running = { cell: shown, startedAt };
        replaceItem(live, shown);
        // The agent's per-cell stop (cell.interrupt) aborts live.runController: here, the re-run.
        live.runController = controller;
        live.runningCellId = cell.id;
        events.emit('cell.running', { conversationId, cellId: cell.id, code: cell.code, startedAt, limits, executionCount });
        events.emit('notebook.rerun-progress', { conversationId, k, n, cellId: cell.id, status: 'running' });
        return;
      }
      const updated = applyRunResult(cell, result, now.running?.startedAt ?? new Date().toISOString());
      now.running = null;
      replaceItem(live, updated);
      events.emit('cell.done', { conversationId, cell: updated, status: updated.status });
      events.emit('notebook.rerun-progress', { conversationId, k, n, cellId: cell.id, status: result.status });
    };

    let outcome: RerunOutcome | null = null;
    let failure: string | null = null;
    try {
      outcome = await rerunCells(
        exec,
        cells,
        {
          conversationId,
          workspace: live.conv.workspace,
          settings: settings.exec,
          signal: controller.signal,
          startAt,
          onDisplayUpdate: (update) => applyDisplayUpdate(live, update, events),
        },
        onProgress,
      );
    } catch (err) {
      failure = errorMessage(err);
      // A cell left "running" by a failure in the engine is not running any more.
      if (now.running) {
        const died: CellItem = { ...now.running.cell, status: 'died' };
        replaceItem(live, died);
        events.emit('cell.done', { conversationId, cell: died, status: died.status });
      }
    } finally {
      live.runController = null;
      live.runningCellId = null;
    }
    await this.save(live);
    // Free before telling anyone it ended, so "continue" right after the event is accepted.
    if (this.active.get(conversationId) === controller) this.active.delete(conversationId);

    const n = cells.length;
    // The cells it never reached still show their outputs and "done" from before: the UI marks them.
    const notRun = outcome && !outcome.cancelled && !outcome.stoppedAt ? [] : cells.slice(reached).map((c) => c.id);
    if (!outcome) {
      events.emit('notebook.rerun-done', {
        conversationId,
        outcome: 'failed',
        n,
        stoppedAt: null,
        nextIndex: null,
        message: failure,
        notRun,
      });
      return;
    }
    const stopped = outcome.stoppedAt;
    events.emit('notebook.rerun-done', {
      conversationId,
      outcome: outcome.cancelled ? 'cancelled' : stopped ? 'stopped' : 'completed',
      n,
      stoppedAt: stopped ? { k: stopped.index + 1, cellId: stopped.cellId, status: stopped.result.status } : null,
      nextIndex: outcome.nextIndex,
      message: null,
      notRun,
    });
  }

  /**
   * Saved once at the end rather than after every cell: a conversation can hold thousands of cells,
   * and the outputs of a re-run can be made again. A conversation deleted meanwhile stays deleted.
   */
  private async save(live: LiveConversation): Promise<void> {
    const current = await this.deps.agent.open(live.conv.id).catch(() => null);
    if (current !== live) return;
    touch(live.conv, this.deps.events);
    try {
      await this.deps.conversations.save(live.conv);
      this.deps.events.emit('conversation.updated', { summary: summaryOf(live.conv) });
    } catch (err) {
      this.deps.events.emit('error', {
        conversationId: live.conv.id,
        message: `could not save the re-run cells: ${errorMessage(err)}`,
        code: 'save-failed',
      });
    }
  }
}

/** The engine with each run's terminal text and outputs routed to the cell that is running. */
function streamingTo(
  exec: ExecService,
  cellId: () => string | null,
  sinks: { onTerminal(cellId: string, data: string): void; onOutput(cellId: string, output: CellOutput): void },
): ExecService {
  return {
    run: (request: RunRequest) => {
      const id = cellId();
      if (!id) return exec.run(request);
      return exec.run({
        ...request,
        runId: id,
        onTerminal: (data) => sinks.onTerminal(id, data),
        onOutput: (output) => sinks.onOutput(id, output),
      });
    },
    interrupt: (conversationId, language) => exec.interrupt(conversationId, language),
    typeInto: (conversationId, runId, data) => exec.typeInto(conversationId, runId, data),
    restart: (conversationId, language) => exec.restart(conversationId, language),
    languages: (scope) => exec.languages(scope),
    python: (scope) => exec.python(scope),
    closeConversation: (conversationId) => exec.closeConversation(conversationId),
    endIdle: (idleMs, keep, now) => exec.endIdle(idleMs, keep, now),
    dispose: () => exec.dispose(),
  };
}

function replaceItem(live: LiveConversation, cell: CellItem): void {
  const index = live.conv.items.findIndex((item) => item.id === cell.id);
  if (index >= 0) live.conv.items[index] = cell;
}
