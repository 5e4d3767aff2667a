import type { GlobalShortcut } from 'electron';
import type { EventBus } from '../core/bridge/event-bus';

// Computer use's stop from anywhere (docs/computer-use.md#under-the-persons-eye): while the agent has the
// screen, the window may be covered, minimised or on another monitor, so besides the banner's Stop and the
// screen-corner gesture a key combination stops it whichever program has the keyboard. It is held only
// while some turn has the screen (computer.control), so the rest of the time the combination belongs to
// the person's other programs.

/** Ctrl+Alt+Shift+Escape (⌘⌥⇧⎋): bound by no common desktop or program, unlike Ctrl+Shift+Escape (Windows' Task Manager). */
export const COMPUTER_STOP_ACCELERATOR = 'CommandOrControl+Alt+Shift+Escape';

export const SHORTCUT_STOP_NOTICE = 'Computer use stopped: you pressed the stop shortcut (Ctrl+Alt+Shift+Escape).';

/**
 * Registers the shortcut when the first conversation takes the screen and releases it when the last one
 * gives it back; pressing it calls `stop`. Returns the unbinding (which releases the shortcut if held).
 */
export function bindComputerStopShortcut(
  shortcuts: Pick<GlobalShortcut, 'register' | 'unregister'>,
  events: EventBus,
  stop: (notice: string) => void,
  warn: (line: string) => void = console.warn,
): () => void {
  const controlling = new Set<string>();
  let held = false;
  const update = () => {
    if (controlling.size > 0 && !held) {
      // Another program may hold it; the banner's Stop and the corner still work, so say so and go on.
      held = shortcuts.register(COMPUTER_STOP_ACCELERATOR, () => stop(SHORTCUT_STOP_NOTICE));
      if (!held)
        warn(
          `The computer-use stop shortcut ${COMPUTER_STOP_ACCELERATOR} is taken by another program; Stop and the screen corner still work.`,
        );
    } else if (controlling.size === 0 && held) {
      shortcuts.unregister(COMPUTER_STOP_ACCELERATOR);
      held = false;
    }
  };
  const unsubscribe = events.subscribe((event) => {
    if (event.name !== 'computer.control') return;
    if (event.payload.active) controlling.add(event.payload.conversationId);
    else controlling.delete(event.payload.conversationId);
    update();
  });
  return () => {
    unsubscribe();
    controlling.clear();
    update();
  };
}
