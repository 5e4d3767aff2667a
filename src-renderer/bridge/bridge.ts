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
  return createWebSocketBridge(`${scheme}//${location.host}/ws`);
}

export const bridge: OiApi = createBridge();
