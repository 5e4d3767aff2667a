import type { AnyEvent } from '@contract';
import { ATTENTION_EVENTS, attentionFor } from '@contract/notifications';
import { bridge } from '../bridge/bridge';
import { useApp } from './app-store';

// Browser mode's notifications (docs/ui.md#notifications): the browser's own, for the moments Settings'
// "Notify me when" lists, when the person is not looking at that conversation (the page hidden, or
// another conversation shown). Clicking one brings the page forward on its conversation. The desktop
// app notifies from main instead (src-main/electron/notifications.ts), even with its window closed.

const supported = () => typeof Notification !== 'undefined' && !window.oi;

/**
 * The browser's answer, read once and kept: reading `Notification.permission` asks the browser process
 * and waits for it, which on a busy machine held a turn's end for the better part of a second.
 */
let permission: NotificationPermission | null = null;
const currentPermission = (): NotificationPermission => (permission ??= Notification.permission);

/**
 * Asked on the first message the person sends (a click or a key: browsers ask only on a gesture), once:
 * a person who said no is not asked again.
 */
export function askNotificationPermission(): void {
  if (!supported() || currentPermission() !== 'default') return;
  if ((useApp.getState().settings?.notifyOn.length ?? 0) === 0) return;
  void Notification.requestPermission()
    .then((answer) => (permission = answer))
    .catch(() => undefined);
}

export function wireNotifications(): () => void {
  if (!supported()) return () => undefined;
  // A change made in the browser's own site settings reaches the page here.
  void navigator.permissions
    ?.query({ name: 'notifications' })
    .then((status) => (status.onchange = () => (permission = null)))
    .catch(() => undefined);
  const offs = ATTENTION_EVENTS.map((name) => bridge.on(name, (payload) => notify({ name, payload } as AnyEvent)));
  return () => {
    for (const off of offs) off();
  };
}

function notify(event: AnyEvent): void {
  const attention = attentionFor(event);
  const state = useApp.getState();
  if (!attention || !state.settings?.notifyOn.includes(attention.kind) || currentPermission() !== 'granted') return;
  const watching = document.visibilityState === 'visible' && state.current?.conv.id === attention.conversationId;
  if (watching) return;
  const title = state.conversations.find((c) => c.id === attention.conversationId)?.title ?? 'Open Interpreter';
  // One notification per conversation at a time: a newer one replaces the older (the tag).
  const shown = new Notification(title, { body: attention.text, tag: `oi-${attention.conversationId}` });
  shown.onclick = () => {
    window.focus();
    shown.close();
    void useApp.getState().openConversation(attention.conversationId);
  };
}
