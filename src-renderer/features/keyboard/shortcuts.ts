import { useApp } from '../../state/app-store';
import { useComposer } from '../../state/composer-store';
import { pendingCell } from '../../state/conversation-reducer';
import { isMac } from './platform';
import { useShortcutHelp } from './shortcut-help';

// Every keyboard shortcut of the app, described once. The global ones carry their action, and the
// window's key handler runs them from this table, so the list the user sees (Ctrl+/ or ?) cannot
// leave one out; the others are handled where they apply (the message box, an editor, the image
// viewer) and are listed here for the same list.

/** A key as KeyboardEvent.key reports it (lower case for letters), with the platform's command key or not. */
export interface KeyCombo {
  key: string;
  command?: boolean;
}

export interface GlobalShortcut {
  id: string;
  combos: KeyCombo[];
  description: string;
  /** false: not handled now (nothing to approve), so the key keeps its usual meaning. */
  run(): boolean;
}

export interface ListedShortcut {
  keys: string[];
  description: string;
}

export const GLOBAL_SHORTCUTS: GlobalShortcut[] = [
  {
    id: 'approve',
    combos: [{ key: 'enter', command: true }],
    description: 'Run the code waiting for approval (the edited code while editing it)',
    run() {
      const app = useApp.getState();
      const cell = pendingCell(app.current);
      if (!cell) return false;
      void app.approve(cell.id);
      return true;
    },
  },
  {
    id: 'new',
    combos: [{ key: 'n', command: true }],
    description: 'New conversation',
    run() {
      void useApp
        .getState()
        .newConversation()
        .then(() => useComposer.getState().focusComposer());
      return true;
    },
  },
  {
    id: 'search',
    combos: [{ key: 'k', command: true }],
    description: 'Search conversations',
    run() {
      useComposer.getState().focusSearch();
      return true;
    },
  },
  {
    id: 'settings',
    combos: [{ key: ',', command: true }],
    description: 'Open Settings',
    run() {
      useApp.getState().setScreen('settings');
      return true;
    },
  },
  {
    id: 'help',
    // "?" only outside text fields: there it is a character (see isTyping in use-global-shortcuts).
    combos: [{ key: '/', command: true }, { key: '?' }],
    description: 'Show this list of shortcuts',
    run() {
      useShortcutHelp.getState().toggle();
      return true;
    },
  },
];

/** Handled where they apply, listed with the global ones. */
const LOCAL_SHORTCUTS: Array<{ keys: (mod: string) => string[]; description: string }> = [
  { keys: () => ['Enter'], description: 'Send the message (in the message box)' },
  { keys: () => ['Shift+Enter'], description: 'New line in the message box' },
  { keys: () => ['Esc'], description: 'Stop the agent while it works; close a menu or dialog; cancel an edit' },
  { keys: () => ['Enter'], description: 'Save a rename, a setting or an edited message' },
  { keys: () => ['Esc'], description: 'Clear the conversation search (in the search box)' },
  { keys: () => ['+', '−', '0'], description: 'Zoom in, zoom out, fit (image preview)' },
  { keys: () => ['←', '→', '↑', '↓'], description: 'Resize a panel (on a resize handle)' },
];

export function comboLabel(combo: KeyCombo, mod = isMac() ? '⌘' : 'Ctrl+'): string {
  const key = combo.key === 'enter' ? 'Enter' : combo.key.length === 1 ? combo.key.toUpperCase() : combo.key;
  return combo.command ? `${mod}${key}` : key;
}

/** Every shortcut, as the list shows it. */
export function listedShortcuts(mod = isMac() ? '⌘' : 'Ctrl+'): ListedShortcut[] {
  return [
    ...GLOBAL_SHORTCUTS.map((s) => ({ keys: s.combos.map((c) => comboLabel(c, mod)), description: s.description })),
    ...LOCAL_SHORTCUTS.map((s) => ({ keys: s.keys(mod), description: s.description })),
  ];
}
