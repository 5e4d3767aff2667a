import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_SOCKET_FRAME_BYTES } from '@contract/limits';
import { EventBus } from '../../src-main/core/bridge/event-bus';
import type { Dispatcher } from '../../src-main/core/bridge/dispatch';
import { startBrowserServer, type BrowserServer } from '../../src-main/server/browser-server';
import { createWebSocketBridge } from '../../src-renderer/bridge/ws-client';
import { RENDERER_DIR } from '../support/app-under-test';
import { useChromium } from '../support/ui-fixture';

// A request over browser mode's socket larger than one frame may carry (a 55 MB notebook): the server
// cannot answer a request it refused to read, so it closes the socket — and says why with the close
// code (1009), in a real Chromium too, which saw a bare 1006 while it was still sending. The page's
// own bridge refuses such a request before sending it, with the sizes, and stays connected.

describe('a request too large for one WebSocket frame', () => {
  const chromium = useChromium();
  const names: string[] = [];
  const dispatch: Dispatcher = (name) => {
    names.push(String(name));
    return Promise.resolve({ ok: true, result: { answered: name } });
  };
  let server: BrowserServer;
  const wsUrl = () => `${server.url.replace(/^http/, 'ws')}/ws`;
  const bigNotebook = () => ({ fileName: 'big.ipynb', source: { text: 'x'.repeat(MAX_SOCKET_FRAME_BYTES + 1024 * 1024) } });

  beforeAll(async () => {
    server = await startBrowserServer({ dispatch, events: new EventBus(), rendererDir: RENDERER_DIR });
    (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
  });
  afterAll(async () => {
    delete (globalThis as { WebSocket?: unknown }).WebSocket;
    await server.close();
  });

  it("is refused by the page's bridge with the sizes, before sending, and the connection stays up", async () => {
    const bridge = createWebSocketBridge(`${wsUrl()}?token=${server.token}`);
    await expect(bridge['notebook.import'](bigNotebook() as never)).rejects.toMatchObject({
      code: 'too-large',
      message: 'This is too large to send to the app from a browser page: 33.0 MB, over the 32.0 MB one request can carry.',
    });
    expect(await bridge['app.info']({})).toEqual({ answered: 'app.info' });
    expect(names).toEqual(['app.info']);
  });

  it('closes a real browser socket with 1009 (message too big), and goes on serving', async () => {
    const page = await chromium.browser.newPage();
    try {
      await page.goto(`${server.url}/?token=${server.token}`);
      const closed = await page.evaluate(
        async ({ url, size }) => {
          const ws = new window.WebSocket(url); // the page's own (this file's WebSocket is Node's ws)
          await new Promise((resolve) => (ws.onopen = resolve));
          const code = new Promise<number>((resolve) => (ws.onclose = (e) => resolve(e.code)));
          ws.send(
            JSON.stringify({
              type: 'request',
              id: 1,
              name: 'notebook.import',
              input: { fileName: 'big.ipynb', source: { text: 'x'.repeat(size) } },
            }),
          );
          return await code;
        },
        { url: wsUrl(), size: 55 * 1024 * 1024 },
      );
      expect(closed).toBe(1009);
      const answer = await page.evaluate(async (url) => {
        const ws = new window.WebSocket(url); // the page's own (this file's WebSocket is Node's ws)
        await new Promise((resolve) => (ws.onopen = resolve));
        const reply = new Promise<string>((resolve) => (ws.onmessage = (e) => resolve(String(e.data))));
        ws.send(JSON.stringify({ type: 'request', id: 2, name: 'app.info', input: {} }));
        return JSON.parse(await reply) as unknown;
      }, wsUrl());
      expect(answer).toEqual({ type: 'response', id: 2, ok: true, result: { answered: 'app.info' } });
      expect(names).not.toContain('notebook.import');
    } finally {
      await page.close();
    }
  });
});
