import type { AnyEvent } from './events';
import type { NotifyKind } from './notify-kinds';

// Which moments of a turn call the person back (docs/ui.md#notifications): the desktop app's OS
// notification (src-main/electron/notifications.ts), the browser's in browser mode
// (src-renderer/state/notifications.ts) and the terminal's bell and title in `oi` share this mapping,
// so the three say the same thing at the same moments. Settings' `notifyOn` lists the kinds wanted.

// Type only: the zod enum itself (notify-kinds.ts) stays out of the renderer's first chunk.
export type { NotifyKind };

export interface Attention {
  kind: NotifyKind;
  conversationId: string;
  /** What happened, in a few words, after the conversation's title. */
  text: string;
}

/** The moment an event marks, if it is one the person may want to hear about; null otherwise. */
export function attentionFor(event: AnyEvent): Attention | null {
  switch (event.name) {
    case 'turn.end': {
      const { conversationId, reason } = event.payload;
      // Stopped by the person, who is there: nothing to say.
      if (reason === 'stopped') return null;
      if (reason === 'done') return { kind: 'turn-done', conversationId, text: 'The turn finished.' };
      if (reason === 'awaiting-user') return { kind: 'input', conversationId, text: 'The model asks you something.' };
      const why = reason === 'budget' ? 'the budget is spent' : reason === 'attempts-exhausted' ? 'the code kept failing' : 'an error';
      return { kind: 'turn-failed', conversationId, text: `The turn failed: ${why}.` };
    }
    case 'cell.awaiting-approval':
      return { kind: 'approval', conversationId: event.payload.conversationId, text: 'Code waits for your approval.' };
    case 'install.awaiting-approval':
      return { kind: 'approval', conversationId: event.payload.conversationId, text: `Install ${event.payload.packages.join(', ')}?` };
    case 'network.awaiting-approval':
      return { kind: 'approval', conversationId: event.payload.conversationId, text: `Code asks to reach ${event.payload.host}.` };
    case 'cell.input-requested':
      return { kind: 'input', conversationId: event.payload.conversationId, text: 'A program asks for input.' };
    case 'schedule.run-ended': {
      // A run that could not start has no conversation to open: the Schedules screen lists it.
      const { conversationId, name, result, costUsd } = event.payload;
      if (conversationId === null) return null;
      return result === 'done'
        ? { kind: 'turn-done', conversationId, text: `Scheduled task “${name}” finished ($${costUsd.toFixed(4)}).` }
        : { kind: 'turn-failed', conversationId, text: `Scheduled task “${name}” ended: ${result}.` };
    }
    default:
      return null;
  }
}

/** The events attentionFor reads, for a subscriber that listens by name. */
export const ATTENTION_EVENTS = [
  'turn.end',
  'cell.awaiting-approval',
  'install.awaiting-approval',
  'network.awaiting-approval',
  'cell.input-requested',
  'schedule.run-ended',
] as const;
