import { useEffect } from 'react';
import { useApp } from '../../state/app-store';
import { useComposer } from '../../state/composer-store';
import { pendingCell } from '../../state/conversation-reducer';
import { hasCommandKey } from './platform';

/**
 * App-wide keys: Ctrl/⌘+Enter approves the waiting cell, Esc stops the turn, Ctrl/⌘+N starts a
 * conversation, Ctrl/⌘+K searches. Enter and Shift+Enter belong to the message box itself.
 */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const app = useApp.getState();
      if (hasCommandKey(e) && !e.shiftKey && !e.altKey) {
        const key = e.key.toLowerCase();
        if (key === 'enter') {
          const cell = pendingCell(app.current);
          if (!cell) return;
          e.preventDefault();
          void app.approve(cell.id);
        } else if (key === 'n') {
          e.preventDefault();
          void app.newConversation().then(() => useComposer.getState().focusComposer());
        } else if (key === 'k') {
          e.preventDefault();
          useComposer.getState().focusSearch();
        }
        return;
      }
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
