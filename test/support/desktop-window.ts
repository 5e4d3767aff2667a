import type { Browser, Page } from 'playwright-core';
import type { Dispatcher } from '../../src-main/core/bridge/dispatch';
import type { EventBus } from '../../src-main/core/bridge/event-bus';

// The page as the desktop window runs it, in Chromium: `window.oi` as the preload exposes it (one
// function per request, a typed `on`), its requests answered by a dispatcher the test builds (the
// core's handlers with the shell's entries in place, as electron/main.ts does) as the `ipc` transport,
// and the core's events sent to it. What differs from the real window is only the transport: Playwright's
// binding instead of Electron's IPC, which the Electron binary would need.

const PRELOAD_STAND_IN = `(() => {
  const listeners = new Map();
  const call = window.__oiRequest;
  window.__oiEvent = (event) => { for (const listener of listeners.get(event.name) ?? []) listener(event.payload); };
  const api = {
    on(name, listener) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  window.oi = new Proxy(api, {
    get(target, name) {
      if (name in target || typeof name !== 'string' || name === 'then') return target[name];
      return async (input) => {
        const reply = await call(name, input);
        if (reply.ok) return reply.result;
        const err = new Error(reply.error.message);
        err.code = reply.error.code;
        throw err;
      };
    },
  });
})();`;

/** Opens `url` as the desktop window would show it; close the page, then call the returned function. */
export async function openDesktopWindow(
  browser: Browser,
  url: string,
  dispatch: Dispatcher,
  events: EventBus,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 }, acceptDownloads: true });
  await page.exposeBinding('__oiRequest', (_source, name: string, input: unknown) => dispatch(name, input, { transport: 'ipc' }));
  await page.addInitScript({ content: PRELOAD_STAND_IN });
  const unsubscribe = events.subscribe((event) => {
    page.evaluate((e) => (window as unknown as { __oiEvent?: (e: unknown) => void }).__oiEvent?.(e), event).catch(() => undefined);
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return {
    page,
    close: async () => {
      unsubscribe();
      await page.close();
    },
  };
}
