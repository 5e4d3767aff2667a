import { useEffect } from 'react';
import { create } from 'zustand';
import type { AnyEvent } from '@contract';
import { bridge } from '../bridge/bridge';
import { useApp } from './app-store';

// Computer use as the page sees it (docs/computer-use.md#under-the-persons-eye): whether it can work
// here and why not (Settings and the composer's switch say it), and which conversations' turns have the
// screen now, with the action being asked for or done (the banner shows it as it happens).

type ActionEvent = Extract<AnyEvent, { name: 'computer.action' }>['payload'];

export interface ComputerSupportView {
  available: boolean;
  reason: string | null;
  model: string;
  modelSees: boolean;
}

interface ComputerState {
  support: ComputerSupportView | null;
  /** Conversations whose turn has the screen, each with its latest action (null until the first one is told). */
  control: Record<string, { action: Pick<ActionEvent, 'text' | 'phase' | 'cellId'> | null }>;
  controlChanged(conversationId: string, active: boolean): void;
  actionTold(a: ActionEvent): void;
  /** Asks main again (the page opened, the model changed in Settings). */
  refreshSupport(): Promise<void>;
}

export const useComputer = create<ComputerState>((set) => ({
  support: null,
  control: {},
  controlChanged: (conversationId, active) =>
    set((s) => {
      const control = { ...s.control };
      if (active) control[conversationId] = control[conversationId] ?? { action: null };
      else delete control[conversationId];
      return { control };
    }),
  actionTold: ({ conversationId, text, phase, cellId }) =>
    // An action is told only while its turn has the screen (computer.control came first).
    set((s) => ({ control: { ...s.control, [conversationId]: { action: { text, phase, cellId } } } })),
  refreshSupport: async () => {
    const support = await bridge['computer.support']({});
    set({ support });
  },
}));

/** Why the switch cannot turn computer use on here, or null when it can. */
export function computerUnavailable(support: ComputerSupportView | null): string | null {
  if (!support) return 'Checking whether computer use can work here…';
  if (!support.available) return support.reason ?? 'Computer use cannot work here.';
  if (!support.modelSees)
    return `The model ${support.model} does not accept images (the model catalog's vision flag), so it cannot see the screen: choose one that does in Settings.`;
  return null;
}

/** Whether computer use can work here, asked of main when shown and again whenever the chosen model changes (its vision flag). */
export function useComputerSupport(): ComputerSupportView | null {
  const provider = useApp((s) => s.settings?.provider);
  const model = useApp((s) => s.settings?.model);
  useEffect(() => {
    void useComputer
      .getState()
      .refreshSupport()
      .catch(() => undefined);
  }, [provider, model]);
  return useComputer((s) => s.support);
}
