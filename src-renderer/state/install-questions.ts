import { create } from 'zustand';
import type { EventPayload } from '@contract';

export type InstallQuestion = EventPayload<'install.awaiting-approval'>;

interface InstallQuestions {
  /** Open questions by the cell whose run needs the package. */
  byCell: Record<string, InstallQuestion>;
  asked(q: InstallQuestion): void;
  answered(questionId: string): void;
}

/** "Install this package?" questions from the engine's auto-installer, shown on their cell. */
export const useInstallQuestions = create<InstallQuestions>((set) => ({
  byCell: {},
  asked: (q) => set((s) => ({ byCell: { ...s.byCell, [q.cellId ?? q.questionId]: q } })),
  answered: (questionId) =>
    set((s) => ({ byCell: Object.fromEntries(Object.entries(s.byCell).filter(([, q]) => q.questionId !== questionId)) })),
}));
