import type { NotificationConstructorOptions } from 'electron';
import { ATTENTION_EVENTS, attentionFor, type NotifyKind } from '@contract';
import type { EventBus } from '../core/bridge/event-bus';

// The desktop app's OS notification (docs/ui.md#notifications): at the moments the browser and the
// terminal call the person back (contract/notifications.ts), filtered by Settings' notifyOn, shown
// when the person is not looking at the window — it is closed (a turn goes on in the tray), minimised
// or another program has the focus. Clicking it brings the window back on that conversation. Main
// shows it, not the page: the page is gone while the window is closed, and the shell denies the
// page's own notification permission (permissions.ts).

/** What the shell needs of Electron's Notification: `new Notification(options)` in main.ts. */
export interface OsNotification {
  show(): void;
  on(event: 'click' | 'close', listener: () => void): unknown;
}

export interface OsNotificationOptions {
  events: EventBus;
  notifyOn: () => readonly NotifyKind[];
  /** Electron's Notification.isSupported(): false on a Linux without a notification daemon. */
  supported: () => boolean;
  create: (options: NotificationConstructorOptions) => OsNotification;
  /** True while the person looks at the window (it exists, is shown and has the focus). */
  watching: () => boolean;
  /** The conversation's title, for the notification's heading. */
  titleOf: (conversationId: string) => Promise<string>;
  /** Brings the window forward (opening it if closed) on the conversation. */
  open: (conversationId: string) => void;
}

export function bindOsNotifications(opts: OsNotificationOptions): () => void {
  const watched = new Set<string>(ATTENTION_EVENTS);
  // Electron drops a notification's click handler once nothing holds the object: kept until it is
  // clicked or closed.
  const shown = new Set<OsNotification>();
  const unsubscribe = opts.events.subscribe((event) => {
    if (!watched.has(event.name)) return;
    const attention = attentionFor(event);
    if (!attention || !opts.notifyOn().includes(attention.kind) || opts.watching() || !opts.supported()) return;
    void opts
      .titleOf(attention.conversationId)
      .catch(() => 'Open Interpreter')
      .then((title) => {
        const note = opts.create({ title: title || 'Open Interpreter', body: attention.text });
        shown.add(note);
        note.on('click', () => {
          shown.delete(note);
          opts.open(attention.conversationId);
        });
        note.on('close', () => shown.delete(note));
        note.show();
      });
  });
  return () => {
    unsubscribe();
    shown.clear();
  };
}
