import type { Conversation, RequestOutput } from '@contract';
import { bridge } from '../bridge/bridge';

// What the window shows first: settings, the app's notices, whether a provider is usable, the
// conversation list and the newest conversation (the window opens on it). The page's first script
// (main.tsx) asks for it before the app's chunk (React and the views) is fetched and evaluated, so the
// connection's handshake and these requests run alongside that instead of after it; the store
// (app-store.ts init) takes the answers when it starts. The newest conversation is asked for as soon as
// the list names it, not after the store has seen the list.

export interface InitialData {
  settings: RequestOutput<'settings.get'>;
  info: RequestOutput<'app.info'>;
  status: RequestOutput<'providers.status'>;
  conversations: RequestOutput<'conversation.list'>;
  /** The newest conversation, null when there is none; rejects on its own (a file that cannot be read). */
  newest: Promise<Conversation | null>;
}

let early: Promise<InitialData> | null = null;

/** Starts the requests (once); called by the page's first script. Settles (never rejects) when they have. */
export function requestInitialData(): Promise<void> {
  early ??= load();
  // A failure is reported by whoever takes the data (the store); not an unhandled rejection meanwhile.
  return early.then(
    () => undefined,
    () => undefined,
  );
}

/** The answers to the requests started early, or new ones when none were (or they were taken already). */
export function takeInitialData(): Promise<InitialData> {
  const data = early ?? load();
  early = null;
  return data;
}

async function load(): Promise<InitialData> {
  const list = bridge['conversation.list']({});
  const newest = list.then((all) => (all[0] ? bridge['conversation.get']({ conversationId: all[0].id }) : null));
  newest.catch(() => undefined);
  const [settings, info, status, conversations] = await Promise.all([
    bridge['settings.get']({}),
    bridge['app.info']({}),
    bridge['providers.status']({}),
    list,
  ]);
  return { settings, info, status, conversations, newest };
}
