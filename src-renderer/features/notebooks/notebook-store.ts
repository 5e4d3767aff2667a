import { create } from 'zustand';
import type { CellStatus, ConversationItem, EventPayload, NotebookRerunOutcome } from '@contract';
import { setNotRerun } from '../../state/not-rerun';

// What the notebook bar shows, per conversation: the offer to re-run an imported notebook, a re-run in
// progress ("cell k of n"), or how the last one ended (with "continue" after a stop). Also notebooks
// dropped on the window waiting for the user's answer, and the warnings of the last import.

export type RerunView =
  | { phase: 'offer'; n: number }
  | { phase: 'starting'; n: number | null; startAt: number }
  | { phase: 'running'; k: number; n: number; cellStatus: 'running' | CellStatus }
  | {
      phase: 'ended';
      outcome: NotebookRerunOutcome;
      n: number;
      stoppedAt: { k: number; cellId: string; status: CellStatus } | null;
      nextIndex: number | null;
      message: string | null;
      /** Cells this re-run did not reach: what they show is from before (CellHeader says so). */
      notRun: readonly string[];
    };

export interface ImportWarnings {
  conversationId: string;
  fileName: string;
  warnings: string[];
}

interface NotebookState {
  reruns: Record<string, RerunView>;
  /** Notebooks dropped on the window: import each, or attach them like any file. */
  dropped: File[];
  warnings: ImportWarnings | null;
  /** An import or export in flight, for disabling the menu entries and saying what is happening. */
  busy: string | null;
}

interface NotebookActions {
  setRerun(conversationId: string, view: RerunView | null): void;
  onProgress(p: EventPayload<'notebook.rerun-progress'>): void;
  onDone(p: EventPayload<'notebook.rerun-done'>): void;
  offerDropped(files: File[]): void;
  clearDropped(): void;
  setWarnings(warnings: ImportWarnings | null): void;
  setBusy(busy: string | null): void;
}

export const useNotebooks = create<NotebookState & NotebookActions>((set, get) => ({
  reruns: {},
  dropped: [],
  warnings: null,
  busy: null,

  setRerun(conversationId, view) {
    const reruns = { ...get().reruns };
    if (view) reruns[conversationId] = view;
    else delete reruns[conversationId];
    set({ reruns });
    setNotRerun(conversationId, view?.phase === 'ended' ? view.notRun : []);
  },
  onProgress({ conversationId, k, n, status }) {
    get().setRerun(conversationId, { phase: 'running', k, n, cellStatus: status });
  },
  onDone({ conversationId, outcome, n, stoppedAt, nextIndex, message, notRun }) {
    get().setRerun(conversationId, { phase: 'ended', outcome, n, stoppedAt, nextIndex, message, notRun });
  },
  offerDropped: (files) => set({ dropped: [...get().dropped, ...files] }),
  clearDropped: () => set({ dropped: [] }),
  setWarnings: (warnings) => set({ warnings }),
  setBusy: (busy) => set({ busy }),
}));

/** How many cells "re-run all" would run; the same rule as main's rerunnableCells. */
export function rerunnableCount(items: readonly ConversationItem[]): number {
  let n = 0;
  for (const item of items) {
    if (item.kind === 'cell' && item.approval !== 'declined' && item.status !== 'streaming' && item.code.trim() !== '') n++;
  }
  return n;
}

export function isNotebookFile(file: File): boolean {
  return /\.ipynb$/i.test(file.name);
}
