import { useEffect } from 'react';
import { useApp } from '../../state/app-store';
import { hasCommandKey } from './platform';
import { GLOBAL_SHORTCUTS, type KeyCombo } from './shortcuts';

/**
 * App-wide keys, from the table in shortcuts.ts (Ctrl/⌘+Enter, N, K, comma, slash, and ?), plus Esc,
 * which stops the turn unless a dialog or an editor has it. Enter and Shift+Enter belong to the
 * message box itself.
 */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey) return;
      const command = hasCommandKey(e);
      const key = e.key.toLowerCase();
      const matches = (c: KeyCombo) => c.key === key && !!c.command === command && (command ? !e.shiftKey : !isTyping(e.target));
      const shortcut = GLOBAL_SHORTCUTS.find((s) => s.combos.some(matches));
      if (shortcut) {
        if (shortcut.run()) e.preventDefault();
        return;
      }
      const app = useApp.getState();
      if (e.key === 'Escape' && app.current?.busy && app.screen === 'chat' && !isInDialog(e.target)) {
        e.preventDefault();
        void app.stop();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Esc inside a dialog, an editor or a menu closes that, not the turn. */
function isInDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('[role="dialog"], .cell-editor, .inline-edit') !== null;
}

/** A key without a modifier is a character when a text field has the focus. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'range', 'color', 'file'].includes(target.type);
}
