import { watch, type FSWatcher } from 'node:fs';
import { APP_DIR } from './workspace-tree';
import { errorMessage } from '@contract/error-message';

export interface WatcherOptions {
  /** Changes are gathered this long before one notice goes out: a run writing 1,000 files is one refresh. */
  debounceMs?: number;
  /** Workspaces watched at once; the least recently opened one stops being watched past this. */
  maxWatched?: number;
}

type OnChange = (conversationId: string, paths: string[]) => void;

interface Watched {
  root: string;
  watcher: FSWatcher;
  pending: Set<string>;
  timer: NodeJS.Timeout | null;
}

/**
 * Watches the workspaces the UI has open and reports changed paths ('/'-separated, relative), batched.
 * The app's own .oi/ folder is ignored: the run's spill files are not the user's changes.
 */
export class WorkspaceWatchers {
  private readonly watched = new Map<string, Watched>();
  private readonly debounceMs: number;
  private readonly maxWatched: number;

  constructor(
    private readonly onChange: OnChange,
    opts: WatcherOptions = {},
  ) {
    this.debounceMs = opts.debounceMs ?? 120;
    this.maxWatched = opts.maxWatched ?? 4;
  }

  /** Starts watching (or marks as recently used). Returns false when the OS refused to watch. */
  watch(conversationId: string, root: string): boolean {
    const existing = this.watched.get(conversationId);
    if (existing && existing.root === root) {
      this.watched.delete(conversationId);
      this.watched.set(conversationId, existing);
      return true;
    }
    if (existing) this.stop(conversationId);
    let watcher: FSWatcher;
    try {
      watcher = watch(root, { recursive: true, persistent: false });
    } catch (err) {
      console.warn(`cannot watch the workspace ${root}: ${errorMessage(err)}`);
      return false;
    }
    const entry: Watched = { root, watcher, pending: new Set(), timer: null };
    watcher.on('change', (_event, name) => this.record(conversationId, entry, String(name ?? '')));
    // A watched folder removed or an inotify limit reached: stop quietly; the UI still refreshes on runs.
    watcher.on('error', () => this.stop(conversationId));
    this.watched.set(conversationId, entry);
    while (this.watched.size > this.maxWatched) {
      const oldest = this.watched.keys().next().value;
      if (oldest === undefined) break;
      this.stop(oldest);
    }
    return true;
  }

  /** The conversation moved to another folder: watch that one instead, if the old one was watched. */
  follow(conversationId: string, root: string): void {
    if (this.watched.has(conversationId)) this.watch(conversationId, root);
  }

  stop(conversationId: string): void {
    const entry = this.watched.get(conversationId);
    if (!entry) return;
    this.watched.delete(conversationId);
    if (entry.timer) clearTimeout(entry.timer);
    entry.watcher.close();
  }

  dispose(): void {
    for (const id of [...this.watched.keys()]) this.stop(id);
  }

  private record(conversationId: string, entry: Watched, name: string): void {
    const rel = name.split(/[\\/]+/).join('/');
    if (rel === APP_DIR || rel.startsWith(`${APP_DIR}/`)) return;
    entry.pending.add(rel);
    if (entry.timer) return;
    entry.timer = setTimeout(() => {
      entry.timer = null;
      const paths = [...entry.pending];
      entry.pending.clear();
      if (this.watched.get(conversationId) === entry && paths.length > 0) this.onChange(conversationId, paths);
    }, this.debounceMs);
  }
}
