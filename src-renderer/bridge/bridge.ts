import type { OiApi } from '@contract';
import { createWebSocketBridge } from './ws-client';

declare global {
  interface Window {
    /** Present in the desktop app, exposed by the preload. */
    oi?: OiApi;
  }
}

let connected: () => void = () => undefined;
/**
 * Settles once requests can be sent: at once in the desktop app (the preload), when browser mode's
 * WebSocket first opens. The page's first script waits for it before evaluating the app's chunk
 * (main.tsx): the socket's open event is a task on the page's main thread, and while that chunk
 * evaluates, the open — and the first requests with it — would wait.
 */
export const bridgeConnected = new Promise<void>((resolve) => (connected = resolve));

/** One typed client whatever the transport: the preload's window.oi, else browser mode's WebSocket. */
export function createBridge(): OiApi {
  if (window.oi) {
    connected();
    return window.oi;
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return createWebSocketBridge(`${scheme}//${location.host}/ws`, {
    onOpen: connected,
  });
}

/**
 * Browser mode is opened with `?token=…`; the server answers that first load with the HttpOnly
 * cookie. Once the window is usable its state came over the WebSocket, so the cookie demonstrably
 * works, and the token leaves the address bar and the history entry (no shoulder-surfing, screen
 * sharing or copied link carries it); startup.ts calls this then. Until then it stays, so a reload
 * still works if the cookie did not take. Not at the socket's open, as before: history.replaceState
 * is a round trip to the browser process, on the main thread, while the page starts.
 */
export function forgetLaunchToken(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
}

export const bridge: OiApi = createBridge();
