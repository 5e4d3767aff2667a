import { create } from 'zustand';

// Turning on Auto-run (Settings, the top bar) or "Always run here" (a cell) lets the model's code run
// without anyone reading it first. Each time it is turned on, one confirmation names what the code
// can then reach (features/auto-run/AutoRunConfirm.tsx); turning it off never asks.

export type AutoRunScope = 'everywhere' | 'conversation';

interface AutoRunConfirmState {
  /** What is being asked about, while the confirmation shows. */
  asking: AutoRunScope | null;
  resolve: ((yes: boolean) => void) | null;
  answer(yes: boolean): void;
}

export const useAutoRunConfirm = create<AutoRunConfirmState>((set, get) => ({
  asking: null,
  resolve: null,
  answer(yes) {
    const { resolve } = get();
    set({ asking: null, resolve: null });
    resolve?.(yes);
  },
}));

/** Shows the confirmation and resolves with the user's answer; a second ask declines the first. */
export function confirmAutoRun(scope: AutoRunScope): Promise<boolean> {
  useAutoRunConfirm.getState().resolve?.(false);
  return new Promise((resolve) => useAutoRunConfirm.setState({ asking: scope, resolve }));
}
