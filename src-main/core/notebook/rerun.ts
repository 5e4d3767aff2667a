import type { CellItem, ConversationItem, DisplayUpdate, ExecSettings } from '@contract';
import { updatedOutputs } from '@contract/display-updates';
import type { ExecService, RunResult } from '../exec';
import { magicFor, notebookLanguage } from './languages';

// "Re-run all cells to restore state": an imported notebook's outputs are history, but its variables,
// files and imports only exist once its code runs again in the live session. Runs go one at a time,
// in notebook order, and stop at the first that does not finish cleanly, so the user can look, fix
// and continue from the next cell (call again with `startAt`).
//
// As Jupyter runs a notebook top to bottom (nbclient, what `nbconvert --execute` and "Run All" use):
// cells tagged `skip-execution` are not run, a failure in a cell tagged `raises-exception` is expected
// and the run goes on, and the cells are numbered 1..n in order across languages, as the one kernel
// numbers them. The app's own cells count as tagged the way export tags them (a failed attempt of an
// error loop `raises-exception`, a run that never finished `skip-execution`).
//
// A cell whose language came from a cell magic (`%%ruby`, `%%script node`) runs in that language's
// session; when this machine has no such program, it runs as Jupyter runs it: the magic line and the
// code in the Python session, where IPython's %%script prints "Couldn't find program: 'ruby'" and the
// cell succeeds, so the run goes on (the runner's own %%script does the same without IPython).

export interface RerunContext {
  conversationId: string;
  workspace: string;
  settings: ExecSettings;
  /** Aborting interrupts the running cell and runs no more. */
  signal?: AbortSignal;
  /** Index into `cells` to start from (to continue after a stop). */
  startAt?: number;
  /** A display update (docs/exec.md#display-updates), after it was applied to this re-run's results. */
  onDisplayUpdate?: (update: DisplayUpdate) => void;
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

/** The cells worth re-running: all code the user did not decline, that was complete and that Jupyter would run. */
export function rerunnableCells(items: readonly ConversationItem[]): CellItem[] {
  return items.filter(
    (item): item is CellItem =>
      item.kind === 'cell' &&
      item.approval !== 'declined' &&
      item.status !== 'streaming' &&
      item.code.trim() !== '' &&
      !rerunTags(item).includes('skip-execution'),
  );
}

const APP_FAILED: ReadonlySet<CellItem['status']> = new Set(['failed', 'unavailable']);
const APP_UNFINISHED: ReadonlySet<CellItem['status']> = new Set(['timeout', 'interrupted', 'died']);

/** The nbclient tags a cell runs under: the notebook's own, and for the app's cells those export gives them. */
export function rerunTags(cell: CellItem): string[] {
  const own = cell.jupyter?.metadata.tags;
  const tags = Array.isArray(own) ? own.filter((t): t is string => typeof t === 'string') : [];
  // A cell from Jupyter (it has a cell type of its own) has only the file's tags; the app's own cells
  // are tagged by how their last run ended, as live-session-export.ts tags them in the export.
  if (cell.jupyter?.cellType === undefined) {
    if (APP_FAILED.has(cell.status)) tags.push('raises-exception');
    else if (APP_UNFINISHED.has(cell.status)) tags.push('skip-execution');
  }
  return tags;
}

export async function rerunCells(
  exec: ExecService,
  cells: readonly CellItem[],
  ctx: RerunContext,
  onProgress: (progress: RerunProgress) => void = () => {},
): Promise<RerunOutcome> {
  const results: RerunOutcome['results'] = [];
  const n = cells.length;
  // As in Jupyter, a cell may update a display an earlier cell showed: the results hold the last value.
  const onDisplayUpdate = (update: DisplayUpdate): void => {
    for (const ran of results) ran.result.outputs = updatedOutputs(ran.result.outputs, update);
    ctx.onDisplayUpdate?.(update);
  };
  for (let index = ctx.startAt ?? 0; index < n; index++) {
    if (ctx.signal?.aborted) return { results, stoppedAt: null, cancelled: true, nextIndex: index };
    const cell = cells[index] as CellItem;
    // Read before the run: the verdict is the notebook's, not the new result's.
    const expectsError = rerunTags(cell).includes('raises-exception');
    onProgress({ k: index + 1, n, cell, result: null });
    const runAs = (language: string, code: string): Promise<RunResult> =>
      exec.run({
        conversationId: ctx.conversationId,
        workspace: ctx.workspace,
        language,
        code,
        settings: ctx.settings,
        executionCount: index + 1,
        onDisplayUpdate,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    let result = await runAs(cell.language, cell.code);
    const magic = result.status === 'unavailable' && !ctx.signal?.aborted ? scriptMagicOf(cell) : null;
    if (magic) {
      // A refusal (a sandbox that cannot start) refuses Python as well: the first answer stands then.
      const viaPython = await runAs('python', `${magic}${cell.code}`);
      if (viaPython.status !== 'unavailable') result = viaPython;
    }
    results.push({ cellId: cell.id, result });
    onProgress({ k: index + 1, n, cell, result });
    if (ctx.signal?.aborted) return { results, stoppedAt: null, cancelled: true, nextIndex: index + 1 < n ? index + 1 : null };
    if (result.status !== 'done' && !(result.status === 'failed' && expectsError)) {
      return { results, stoppedAt: { index, cellId: cell.id, result }, cancelled: false, nextIndex: index + 1 < n ? index + 1 : null };
    }
  }
  return { results, stoppedAt: null, cancelled: false, nextIndex: null };
}

/**
 * The cell magic (with its line break) that runs this cell's program in a Python notebook, or null
 * when it is not one IPython runs as a program (%%html, Python itself). A cell from Jupyter has the
 * line it was written with; the app's own cells the one export gives them.
 */
function scriptMagicOf(cell: CellItem): string | null {
  const magic =
    cell.jupyter?.magic ?? (cell.jupyter?.cellType === undefined ? `${magicFor(notebookLanguage(cell.language, cell.shell))}\n` : '');
  return /^%%(?!html\b)\w/.test(magic) ? magic : null;
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
