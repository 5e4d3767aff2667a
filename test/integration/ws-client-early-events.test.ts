import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EventBus } from '../../src-main/core/bridge/event-bus';
import type { Dispatcher } from '../../src-main/core/bridge/dispatch';
import { startBrowserServer, type BrowserServer } from '../../src-main/server/browser-server';
import { createWebSocketBridge } from '../../src-renderer/bridge/ws-client';
import { RENDERER_DIR } from '../support/app-under-test';

// The page's first script opens the connection and sends the first requests before the app's chunk has
// subscribed to any event (src-renderer/main.tsx). Events main sends in between must not be lost: the
// browser bridge holds them and hands them, in order, to the listeners subscribed together first, ahead
// of anything that arrives later. Against browser mode's real server, with Node's `ws` as the page's
// WebSocket (Node 20 has none of its own).

describe('the browser bridge keeps events that arrive before anything listens', () => {
  const events = new EventBus();
  let server: BrowserServer;
  const summary = (title: string) => ({
    summary: { id: `id-${title}`, title, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', workspace: '/tmp' },
  });
  // Answers every request, and says something on the bus before it does.
  const dispatch: Dispatcher = (name) => {
    events.emit('conversation.updated', summary(`before the answer to ${String(name)}`));
    return Promise.resolve({ ok: true, result: { answered: name } });
  };

  beforeAll(async () => {
    server = await startBrowserServer({ dispatch, events, rendererDir: RENDERER_DIR });
    (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
  });
  afterAll(async () => {
    delete (globalThis as { WebSocket?: unknown }).WebSocket;
    await server.close();
  });

  it('delivers the early events to the first listeners, in order, before later ones', async () => {
    const bridge = createWebSocketBridge(`${server.url.replace(/^http/, 'ws')}/ws?token=${server.token}`);
    // No listener yet: the event sent before this answer reaches the page first, and waits.
    expect(await bridge['settings.get']({})).toEqual({ answered: 'settings.get' });
    expect(await bridge['app.info']({})).toEqual({ answered: 'app.info' });

    const seen: string[] = [];
    const other: string[] = [];
    bridge.on('conversation.updated', ({ summary: s }) => seen.push(s.title));
    bridge.on('workspace.changed', ({ paths }) => other.push(...paths));
    expect(seen).toEqual([]);
    await Promise.resolve();
    expect(seen).toEqual(['before the answer to settings.get', 'before the answer to app.info']);

    events.emit('conversation.updated', summary('after subscribing'));
    await expect
      .poll(() => seen, { timeout: 15_000 })
      .toEqual(['before the answer to settings.get', 'before the answer to app.info', 'after subscribing']);
    // A listener subscribed later gets only what comes after it.
    const late: string[] = [];
    bridge.on('conversation.updated', ({ summary: s }) => late.push(s.title));
    events.emit('conversation.updated', summary('last'));
    await expect.poll(() => late, { timeout: 15_000 }).toEqual(['last']);
    expect(other).toEqual([]);
  });
});
