import type { CellItem, ConversationItem, ExecSettings } from '@contract';
import type { ExecService, RunResult } from '../exec';

// "Re-run all cells to restore state": an imported notebook's outputs are history, but its variables,
// files and imports only exist once its code runs again in the live session. Runs go one at a time,
// in notebook order, and stop at the first that does not finish cleanly, so the user can look, fix
// and continue from the next cell (call again with `startAt`).

export interface RerunContext {
  conversationId: string;
  workspace: string;
  settings: ExecSettings;
  /** Aborting interrupts the running cell and runs no more. */
  signal?: AbortSignal;
  /** Index into `cells` to start from (to continue after a stop). */
  startAt?: number;
}

export interface RerunProgress {
  /** 1-based: "cell k of n". */
  k: number;
  n: number;
  cell: CellItem;
  /** Set once the cell has finished. */
  result: RunResult | null;
}

export interface RerunOutcome {
  /** Results in order, one per cell that ran. */
  results: Array<{ cellId: string; result: RunResult }>;
  /** The cell that did not finish cleanly, or null when every cell ran (or the run was cancelled). */
  stoppedAt: { index: number; cellId: string; result: RunResult } | null;
  cancelled: boolean;
  /** Where to continue from, or null when nothing is left. */
  nextIndex: number | null;
}

/** The cells worth re-running: all code the user did not decline and that was complete. */
export function rerunnableCells(items: readonly ConversationItem[]): CellItem[] {
  return items.filter(
    (item): item is CellItem =>
      item.kind === 'cell' && item.approval !== 'declined' && item.status !== 'streaming' && item.code.trim() !== '',
  );
}

export async function rerunCells(
  exec: ExecService,
  cells: readonly CellItem[],
  ctx: RerunContext,
  onProgress: (progress: RerunProgress) => void = () => {},
): Promise<RerunOutcome> {
  const results: RerunOutcome['results'] = [];
  const n = cells.length;
  for (let index = ctx.startAt ?? 0; index < n; index++) {
    if (ctx.signal?.aborted) return { results, stoppedAt: null, cancelled: true, nextIndex: index };
    const cell = cells[index] as CellItem;
    onProgress({ k: index + 1, n, cell, result: null });
    const result = await exec.run({
      conversationId: ctx.conversationId,
      workspace: ctx.workspace,
      language: cell.language,
      code: cell.code,
      settings: ctx.settings,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    results.push({ cellId: cell.id, result });
    onProgress({ k: index + 1, n, cell, result });
    if (ctx.signal?.aborted) return { results, stoppedAt: null, cancelled: true, nextIndex: index + 1 < n ? index + 1 : null };
    if (result.status !== 'done') {
      return { results, stoppedAt: { index, cellId: cell.id, result }, cancelled: false, nextIndex: index + 1 < n ? index + 1 : null };
    }
  }
  return { results, stoppedAt: null, cancelled: false, nextIndex: null };
}

/** The cell as it stands after a re-run: the new outputs replace the imported ones. */
export function applyRunResult(cell: CellItem, result: RunResult, startedAt: string): CellItem {
  // The shell, directory and variables of this run, not of the one the outputs came from before.
  const { shell: _before, cwd: _cwd, envChanges: _env, ...rest } = cell;
  return {
    ...rest,
    ...(result.shell ? { shell: result.shell } : {}),
    ...(result.cwd ? { cwd: result.cwd } : {}),
    ...(result.envChanges ? { envChanges: result.envChanges } : {}),
    status: result.status,
    approval: 'user',
    outputs: result.outputs,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    executionCount: result.executionCount,
    startedAt,
    limits: result.limits,
    resultForModel: result.forModel,
    // Its outputs are this app's own now.
    imported: false,
  };
}
