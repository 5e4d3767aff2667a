import { create } from 'zustand';

/** Whether the shortcut list is open (Ctrl/⌘+/ or ?). */
export const useShortcutHelp = create<{ open: boolean; toggle(): void; close(): void }>((set, get) => ({
  open: false,
  toggle: () => set({ open: !get().open }),
  close: () => set({ open: false }),
}));
