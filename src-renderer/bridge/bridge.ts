import type { OiApi } from '@contract';
import { createWebSocketBridge } from './ws-client';

declare global {
  interface Window {
    /** Present in the desktop app, exposed by the preload. */
    oi?: OiApi;
  }
}

/** One typed client whatever the transport: the preload's window.oi, else browser mode's WebSocket. */
export function createBridge(): OiApi {
  if (window.oi) return window.oi;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return createWebSocketBridge(`${scheme}//${location.host}/ws`, { onOpen: forgetLaunchToken });
}

/**
 * Browser mode is opened with `?token=…`; the server answers that first load with the HttpOnly
 * cookie. Once a WebSocket has opened, the cookie demonstrably works, so the token leaves the address
 * bar and the history entry (no shoulder-surfing, screen sharing or copied link carries it). Until
 * then it stays, so a reload still works if the cookie did not take.
 */
function forgetLaunchToken(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
}

export const bridge: OiApi = createBridge();
