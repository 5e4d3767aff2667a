import path from 'node:path';
import type { CellItem, CellStatus, ConversationItem } from '@contract';
import { AutoInstall } from '../exec';
import { canonicalLanguage, notebookLanguage } from './languages';

export { RERUN_TAGS } from './app-metadata';

// What a live session's export needs so the notebook re-runs top to bottom under
// `jupyter nbconvert --execute` without --allow-errors (docs/notebooks.md, "Exports that re-run"):
//
// - In the app each shell keeps its state between cells; in Jupyter each %%bash cell is a fresh
//   process started in the kernel's directory. So an exported shell cell begins with a prelude: `cd`
//   to the directory its session was in (relative to the Python kernel's directory at that point,
//   which Python cells may have moved) and `export`/`unset` of the variables earlier cells of that
//   session changed. The cell's metadata says how many lines the prelude has, so import removes it.
// - Attempts that failed (an error loop) are tagged `raises-exception`, which lets nbconvert go on
//   past their error; runs that never finished (timeout, interrupted, died) are tagged
//   `skip-execution`: run again they would hang or die again.
// - Absolute paths into the workspace in code become relative to where the cell runs, so the
//   notebook runs wherever the workspace's files are beside it — unless the cell changes its own
//   directory (cd, os.chdir), where a relative path would be read from the wrong place.
// - Package installs are moved before the first cell that uses the package.

export interface LiveCellPlan {
  /** Lines that start an exported shell cell: its session's directory and variables. */
  prelude: string[];
  /** Tags nbconvert understands, for how the run ended. */
  tags: string[];
  /** The code with absolute workspace paths made relative; the same string when nothing changed. */
  code: string;
}

const FAILED: ReadonlySet<CellStatus> = new Set(['failed', 'unavailable']);
const UNFINISHED: ReadonlySet<CellStatus> = new Set(['timeout', 'interrupted', 'died', 'running']);
/** Code the user never approved is written as a raw cell: nothing to plan. */
const NOT_RUN: ReadonlySet<CellStatus> = new Set(['skipped', 'awaiting-approval', 'streaming']);

interface ShellState {
  cwd: string;
  env: Map<string, string | null>;
}

/**
 * The plan for each code cell the app ran, by item id. `pythonKernel`: cells of other languages are
 * cell magics of a Python kernel (without it there is no prelude: a bash kernel keeps its state).
 */
export function planLiveSession(items: readonly ConversationItem[], workspace: string, pythonKernel: boolean): Map<string, LiveCellPlan> {
  const plans = new Map<string, LiveCellPlan>();
  const root = path.resolve(workspace);
  let pythonCwd = root;
  const shells = new Map<string, ShellState>();
  const shellOf = (name: string): ShellState => {
    let state = shells.get(name);
    if (!state) shells.set(name, (state = { cwd: root, env: new Map() }));
    return state;
  };

  for (const item of items) {
    if (item.kind !== 'cell' || item.jupyter?.cellType !== undefined || NOT_RUN.has(item.status)) continue;
    const language = canonicalLanguage(notebookLanguage(item.language, item.shell));
    const tags = FAILED.has(item.status) ? ['raises-exception'] : UNFINISHED.has(item.status) ? ['skip-execution'] : [];
    if (language === 'shell' || language === 'zsh') {
      const state = shellOf(language);
      const prelude = pythonKernel ? shellPrelude(state, pythonCwd) : [];
      plans.set(item.id, {
        prelude,
        tags,
        code: changesDirectory(item.code, language) ? item.code : relativePaths(item.code, root, state.cwd),
      });
      if (item.cwd) state.cwd = path.resolve(item.cwd);
      for (const [name, value] of Object.entries(item.envChanges ?? {})) state.env.set(name, value);
      // A session that died is started again, in the workspace with a fresh environment.
      if (item.status === 'died') shells.delete(language);
    } else if (language === 'python') {
      plans.set(item.id, {
        prelude: [],
        tags,
        code: changesDirectory(item.code, language) ? item.code : relativePaths(item.code, root, pythonCwd),
      });
      if (item.cwd) pythonCwd = path.resolve(item.cwd);
      if (item.status === 'died') pythonCwd = root;
    } else {
      plans.set(item.id, { prelude: [], tags, code: item.code });
    }
  }
  return plans;
}

function shellPrelude(state: ShellState, pythonCwd: string): string[] {
  const lines: string[] = [];
  if (state.cwd !== pythonCwd) lines.push(`cd ${shellQuote(pathFrom(pythonCwd, state.cwd))}`);
  for (const [name, value] of [...state.env].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(value === null ? `unset ${name}` : `export ${name}=${shellQuote(value)}`);
  }
  return lines;
}

/** `to` as seen from `from`: relative when it can be, absolute otherwise (another drive on Windows). */
function pathFrom(from: string, to: string): string {
  const relative = path.relative(from, to);
  if (relative === '') return '.';
  return path.isAbsolute(relative) ? to : relative.split(path.sep).join('/');
}

/**
 * A cell that changes its own directory: a path made relative to where it starts would be read from
 * elsewhere after the change, so its absolute paths are left as they are.
 */
function changesDirectory(code: string, language: string): boolean {
  return language === 'python' ? /\bos\.chdir\b|^\s*%cd\b/m.test(code) : /(^|[\s;&|(])(cd|pushd|popd)(\s|;|$)/m.test(code);
}

/** A word the shell reads back as exactly `value`. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_./:=@%+-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Absolute paths into the workspace, written in the code, made relative to `base` (where the cell
 * runs). Only whole paths: the workspace followed by a separator or the end of the path, never a
 * longer name that starts the same.
 */
export function relativePaths(code: string, workspace: string, base: string): string {
  if (!code.includes(workspace)) return code;
  const escaped = workspace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`${escaped}((?:/[^\\s'"\`)\\]},;:|&<>*?$]*)?)(?![^\\s'"\`)\\]},;:|&<>*?$/])`, 'g');
  return code.replace(pattern, (_whole, rest: string) => {
    const relative = pathFrom(base, path.resolve(workspace + rest));
    // '/ws/' + name must stay a folder followed by a name: './' + name.
    return rest.endsWith('/') && !relative.endsWith('/') ? `${relative}/` : relative;
  });
}

/**
 * The items in export order: each successful package install moved before the first code cell that
 * used it — the cell that was running when it was installed, or an earlier Python cell importing it.
 */
export function installsBeforeUse(items: readonly ConversationItem[]): ConversationItem[] {
  const out = [...items];
  for (let index = 0; index < out.length; index++) {
    const item = out[index] as ConversationItem;
    if (item.kind !== 'notice' || !item.install?.ok) continue;
    let target = -1;
    for (let j = index - 1; j >= 0; j--) {
      if (out[j]?.kind === 'cell') {
        target = j;
        break;
      }
    }
    if (target < 0) continue;
    const packages = new Set(item.install.packages.map((p) => p.toLowerCase()));
    const earliest = out.findIndex((other, j) => j < target && other.kind === 'cell' && importsAny(other, packages));
    if (earliest >= 0) target = earliest;
    out.splice(index, 1);
    out.splice(target, 0, item);
  }
  return out;
}

function importsAny(cell: CellItem, packages: ReadonlySet<string>): boolean {
  if (canonicalLanguage(cell.language) !== 'python') return false;
  for (const match of cell.code.matchAll(
    /^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import|import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*))/gm,
  )) {
    const modules = (match[1] ?? match[2] ?? '').split(',').map((m) => m.trim());
    for (const module of modules) {
      const top = module.split('.')[0] ?? '';
      if (packages.has(top.toLowerCase()) || packages.has(AutoInstall.pipPackageFor(module)?.package.toLowerCase() ?? '')) return true;
    }
  }
  return false;
}
