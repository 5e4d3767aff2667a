import { create } from 'zustand';
import type { EventPayload } from '@contract';

export type NetworkQuestion = EventPayload<'network.awaiting-approval'>;

interface NetworkQuestions {
  /** Open questions by the cell whose code wants the host (or by question, when no cell runs). */
  byCell: Record<string, NetworkQuestion>;
  asked(q: NetworkQuestion): void;
  answered(questionId: string): void;
}

/** "Let the code reach this host?" questions from the sandbox's proxy (docs/sandbox.md#network), shown on their cell. */
export const useNetworkQuestions = create<NetworkQuestions>((set) => ({
  byCell: {},
  asked: (q) => set((s) => ({ byCell: { ...s.byCell, [q.cellId ?? q.questionId]: q } })),
  answered: (questionId) =>
    set((s) => ({ byCell: Object.fromEntries(Object.entries(s.byCell).filter(([, q]) => q.questionId !== questionId)) })),
}));
