import { create } from 'zustand';
import type { EventPayload } from '@contract';

export type InputQuestion = EventPayload<'cell.input-requested'>;

interface InputQuestions {
  /** Open questions by the cell whose program asks. */
  byCell: Record<string, InputQuestion>;
  /** Cells whose program was sent a password in this window: shown as "password sent". The password itself is kept nowhere. */
  passwordSent: Record<string, true>;
  asked(q: InputQuestion): void;
  closed(p: EventPayload<'cell.input-closed'>): void;
  /** The cell's run ended: no question of it can be open any more. */
  runEnded(cellId: string): void;
}

/** Questions running programs ask the person (docs/exec.md#input), shown on their cell. */
export const useInputQuestions = create<InputQuestions>((set) => ({
  byCell: {},
  passwordSent: {},
  asked: (q) => set((s) => ({ byCell: { ...s.byCell, [q.cellId]: q } })),
  closed: ({ cellId, questionId, how }) =>
    set((s) => {
      const open = s.byCell[cellId];
      if (open?.questionId !== questionId) return s;
      const { [cellId]: _closed, ...rest } = s.byCell;
      return { byCell: rest, passwordSent: open.password && how === 'answered' ? { ...s.passwordSent, [cellId]: true } : s.passwordSent };
    }),
  runEnded: (cellId) =>
    set((s) => {
      if (!s.byCell[cellId]) return s;
      const { [cellId]: _ended, ...rest } = s.byCell;
      return { byCell: rest };
    }),
}));
