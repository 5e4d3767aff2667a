import { create } from 'zustand';
import type { CellChanges, FilePreview, WorkspaceTree } from '@contract';
import { bridge } from '../bridge/bridge';
import { withFoldersOf } from './opened-folders';
import { plainMessage } from './plain-error';

/** What the preview panel shows: a workspace file, or a cell's image output (a plot that is not a file). */
export type PreviewTarget =
  { kind: 'file'; path: string } | { kind: 'output'; cellId: string; title: string; mime: string; dataBase64: string };

interface WorkspaceState {
  conversationId: string | null;
  tree: WorkspaceTree | null;
  treeError: string | null;
  /** Folders the user opened (paths). */
  expanded: Set<string>;
  /** Paths changed by the last run (or the run in progress): highlighted in the tree. */
  changed: Set<string>;
  /** A run is in progress: changes reported now belong to it. */
  runActive: boolean;
  /** When the last run ended; the watcher's batches trail a run by a moment. */
  runEndedAt: number;
  /** The last run produced an image output (then a written image file does not take over the preview). */
  runShowedImage: boolean;
  preview: PreviewTarget | null;
  previewData: FilePreview | null;
  previewError: string | null;
}

interface WorkspaceActions {
  open(conversationId: string | null): Promise<void>;
  refresh(): Promise<void>;
  /** The conversation moved to another folder: forget what was shown of the old one and list the new. */
  moved(): Promise<void>;
  toggle(path: string): void;
  onChanged(conversationId: string, paths: string[]): void;
  runStarted(): void;
  /** The run ended; with its checkpoint's list, that list is what it changed (the watcher's guess goes). */
  runEnded(changes?: CellChanges): void;
  showPreview(target: PreviewTarget | null): Promise<void>;
  rename(from: string, to: string): Promise<boolean>;
  remove(path: string): Promise<boolean>;
  reveal(path?: string): Promise<void>;
}

/** Changes this long after a run ended still count as the run's (the watcher batches ~120 ms). */
const RUN_TAIL_MS = 1500;
const IMAGE_FILE = /\.(png|jpe?g|gif|webp|svg|bmp)$/i;

export const useWorkspace = create<WorkspaceState & WorkspaceActions>((set, get) => {
  let inFlight: Promise<void> | null = null;
  let again = false;

  const loadPreview = async (target: PreviewTarget | null) => {
    const id = get().conversationId;
    if (!target || target.kind !== 'file' || !id) return set({ previewData: null, previewError: null });
    try {
      const data = await bridge['workspace.preview']({ conversationId: id, path: target.path });
      // A newer choice may have been made while this one loaded.
      if (get().preview === target) set({ previewData: data, previewError: null });
    } catch (err) {
      // In the person's words: never the request's name (workspace.preview: …).
      if (get().preview === target) set({ previewData: null, previewError: plainMessage(err) });
    }
  };

  return {
    conversationId: null,
    tree: null,
    treeError: null,
    expanded: new Set(),
    changed: new Set(),
    runActive: false,
    runEndedAt: 0,
    runShowedImage: false,
    preview: null,
    previewData: null,
    previewError: null,

    async open(conversationId) {
      if (conversationId === get().conversationId) return;
      set({
        conversationId,
        tree: null,
        treeError: null,
        expanded: new Set(['attachments']),
        changed: new Set(),
        preview: null,
        previewData: null,
        previewError: null,
      });
      if (conversationId) await get().refresh();
    },
    refresh() {
      if (inFlight) {
        again = true;
        return inFlight;
      }
      const run = async () => {
        do {
          again = false;
          const id = get().conversationId;
          if (!id) return;
          try {
            const tree = await bridge['workspace.tree']({ conversationId: id });
            if (get().conversationId === id) set({ tree, treeError: null });
          } catch (err) {
            if (get().conversationId === id) set({ treeError: plainMessage(err) });
          }
        } while (again);
      };
      inFlight = run().finally(() => (inFlight = null));
      return inFlight;
    },
    async moved() {
      set({
        tree: null,
        treeError: null,
        expanded: new Set(['attachments']),
        changed: new Set(),
        preview: null,
        previewData: null,
        previewError: null,
      });
      await get().refresh();
    },
    toggle(path) {
      const expanded = new Set(get().expanded);
      if (expanded.has(path)) expanded.delete(path);
      else expanded.add(path);
      set({ expanded });
    },
    onChanged(conversationId, paths) {
      const s = get();
      if (conversationId !== s.conversationId) return;
      const byRun = s.runActive || Date.now() - s.runEndedAt < RUN_TAIL_MS;
      if (byRun) {
        const changed = new Set(s.changed);
        for (const p of paths) changed.add(p);
        set({ changed, expanded: withFoldersOf(s.expanded, paths) });
        const image = paths.find((p) => IMAGE_FILE.test(p));
        if (image && !s.runShowedImage) void get().showPreview({ kind: 'file', path: image });
      }
      void get()
        .refresh()
        .then(() => {
          const preview = get().preview;
          if (preview?.kind === 'file' && paths.includes(preview.path)) void loadPreview(preview);
        });
    },
    runStarted: () => set({ runActive: true, changed: new Set(), runShowedImage: false }),
    runEnded: (changes) =>
      changes?.checkpointed
        ? // The cell's own count and the badge's must agree: the watcher also reports folders, files
          // made and removed within the run, and ignored paths, which the cell's list does not hold.
          // Settled: later batches of the watcher's no longer count as the run's (runEndedAt 0).
          // The folders holding them are opened here too: a quick cell can end before the watcher's batch.
          set({
            runActive: false,
            runEndedAt: 0,
            changed: new Set(changes.files.map((f) => f.path)),
            expanded: withFoldersOf(
              get().expanded,
              changes.files.map((f) => f.path),
            ),
          })
        : set({ runActive: false, runEndedAt: Date.now() }),
    async showPreview(target) {
      if (target?.kind === 'output') set({ runShowedImage: true });
      set({ preview: target, previewData: null, previewError: null });
      await loadPreview(target);
    },
    async rename(from, to) {
      const id = get().conversationId;
      if (!id) return false;
      try {
        const { path } = await bridge['workspace.rename']({ conversationId: id, from, to });
        const preview = get().preview;
        if (preview?.kind === 'file' && preview.path === from) void get().showPreview({ kind: 'file', path });
        await get().refresh();
        return true;
      } catch (err) {
        set({ treeError: plainMessage(err) });
        return false;
      }
    },
    async remove(path) {
      const id = get().conversationId;
      if (!id) return false;
      try {
        await bridge['workspace.delete']({ conversationId: id, path });
        const preview = get().preview;
        if (preview?.kind === 'file' && (preview.path === path || preview.path.startsWith(`${path}/`)))
          set({ preview: null, previewData: null });
        await get().refresh();
        return true;
      } catch (err) {
        set({ treeError: plainMessage(err) });
        return false;
      }
    },
    async reveal(path) {
      const id = get().conversationId;
      if (!id) return;
      try {
        await bridge['workspace.reveal']({ conversationId: id, ...(path ? { path } : {}) });
      } catch (err) {
        set({ treeError: plainMessage(err) });
      }
    },
  };
});
