import type { WorkspaceEntry } from '@contract';

/** A row of the file tree as shown: an entry and its depth, for the folders that are open. */
export interface TreeRow {
  entry: WorkspaceEntry;
  name: string;
  depth: number;
  hasChildren: boolean;
}

/**
 * The rows to show, given the flat listing (already in display order: each folder followed by its
 * contents) and the set of open folders. Pure, so it is tested on its own.
 */
export function visibleRows(entries: readonly WorkspaceEntry[], expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const parents = new Set(entries.map((e) => parentOf(e.path)).filter((p): p is string => p !== null));
  for (const entry of entries) {
    const parts = entry.path.split('/');
    let shown = true;
    for (let i = 1; i < parts.length; i++) {
      if (!expanded.has(parts.slice(0, i).join('/'))) {
        shown = false;
        break;
      }
    }
    if (!shown) continue;
    rows.push({ entry, name: parts[parts.length - 1] ?? entry.path, depth: parts.length - 1, hasChildren: parents.has(entry.path) });
  }
  return rows;
}

export function parentOf(path: string): string | null {
  const i = path.lastIndexOf('/');
  return i < 0 ? null : path.slice(0, i);
}

/** A folder is marked when something inside it changed in the last run. */
export function changedFolders(changed: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const p of changed) for (let parent = parentOf(p); parent !== null; parent = parentOf(parent)) out.add(parent);
  return out;
}
