import type { EventName, EventPayload, OiApi, RequestInput, RequestName, RequestOutput } from '@contract';
import { MAX_SOCKET_FRAME_BYTES } from '@contract/limits';

type Listener = (payload: unknown) => void;
interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

export class BridgeRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Browser mode's side of the bridge: the same typed API as the preload's window.oi, over the
 * WebSocket. The server authenticated us by the HttpOnly cookie set when the page was opened.
 */
export function createWebSocketBridge(url: string, opts: { onOpen?: () => void } = {}): OiApi {
  const listeners = new Map<string, Set<Listener>>();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let opening: Promise<WebSocket> | null = null;

  const open = (): Promise<WebSocket> => {
    if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve(socket);
    if (opening) return opening;
    opening = new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => {
        socket = ws;
        opening = null;
        opts.onOpen?.();
        resolve(ws);
      };
      ws.onerror = () => {
        opening = null;
        reject(new Error(`could not connect to ${url}`));
      };
      ws.onclose = (ev) => {
        socket = null;
        // 1009: the server refused a frame over its size limit (another client of the same page's code).
        const why =
          ev.code === 1009 ? 'the connection to the app closed: a request was too large to send' : 'the connection to the app closed';
        for (const p of pending.values()) p.reject(new Error(why));
        pending.clear();
        emitLocal('error', {
          conversationId: null,
          message: 'The connection to the app was lost. Reload the page to reconnect.',
          code: 'disconnected',
        });
      };
      ws.onmessage = (ev) => onFrame(String(ev.data));
    });
    return opening;
  };

  // The page's first script opens the socket before the app's chunk has subscribed to anything
  // (main.tsx): events that arrive meanwhile wait here, in order, and go to the listeners subscribed in
  // the same turn as the first one (event-wiring.ts subscribes to everything at once).
  let early: Array<[string, unknown]> | null = [];
  let flushQueued = false;
  const emitLocal = (name: string, payload: unknown) => {
    if (early) early.push([name, payload]);
    else for (const l of listeners.get(name) ?? []) l(payload);
  };
  const flushEarly = () => {
    const waiting = early ?? [];
    early = null;
    for (const [name, payload] of waiting) emitLocal(name, payload);
  };

  const onFrame = (text: string) => {
    const frame = JSON.parse(text) as
      | { type: 'event'; name: string; payload: unknown }
      | { type: 'response'; id: number | null; ok: boolean; result?: unknown; error?: { code: string; message: string } };
    if (frame.type === 'event') return emitLocal(frame.name, frame.payload);
    if (frame.id === null) return;
    const p = pending.get(frame.id);
    if (!p) return;
    pending.delete(frame.id);
    if (frame.ok) p.resolve(frame.result);
    else p.reject(new BridgeRequestError(frame.error?.code ?? 'error', frame.error?.message ?? 'request failed'));
  };

  const request = async (name: RequestName, input: unknown): Promise<unknown> => {
    const ws = await open();
    const id = nextId++;
    const frame = JSON.stringify({ type: 'request', id, name, input });
    // The server closes a socket whose frame is over its limit (it cannot answer a request it did not
    // read): that would fail every pending request and disconnect the page. Refused here instead,
    // with the sizes, and the connection stays up.
    const bytes = frameBytes(frame);
    if (bytes > MAX_SOCKET_FRAME_BYTES) {
      throw new BridgeRequestError(
        'too-large',
        `This is too large to send to the app from a browser page: ${megabytes(bytes)} MB, over the ${megabytes(MAX_SOCKET_FRAME_BYTES)} MB one request can carry.`,
      );
    }
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      ws.send(frame);
    });
  };

  const api: Record<string, unknown> = {
    on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void) {
      const set = listeners.get(name) ?? new Set<Listener>();
      listeners.set(name, set);
      set.add(listener as Listener);
      if (early && !flushQueued) {
        flushQueued = true;
        queueMicrotask(flushEarly);
      }
      void open().catch(() => undefined);
      return () => set.delete(listener as Listener);
    },
  };
  // Every other name is a request, checked by the OiApi type here and by main's dispatcher there (it
  // refuses names not in the contract). A list of names would pull the whole contract, and zod with it,
  // into the first chunk the page parses.
  return new Proxy(api, {
    get(target, name) {
      if (typeof name !== 'string' || name === 'then' || name in target) return target[name as string];
      return (input: unknown) => request(name as RequestName, input);
    },
  }) as OiApi;
}

/** The frame's UTF-8 length, or a lower bound when even three bytes a character stay within the limit. */
function frameBytes(text: string): number {
  return text.length * 3 <= MAX_SOCKET_FRAME_BYTES ? text.length : new TextEncoder().encode(text).byteLength;
}

const megabytes = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

export type { RequestInput, RequestOutput };
