import type { RequestInputParsed, RequestName, RequestOutput } from '@contract';

/** Context a transport passes with each request, for handlers that care how they were reached. */
export interface RequestContext {
  /** The desktop window (IPC), a browser page (WebSocket), or `oi` in the same process (local-requests.ts). */
  transport: 'ipc' | 'websocket' | 'cli';
}

export type Handler<N extends RequestName> = (input: RequestInputParsed<N>, ctx: RequestContext) => Promise<RequestOutput<N>>;

/** One handler per contract request; the type makes a missing or extra name a compile error. */
export type HandlerTable = { [N in RequestName]: Handler<N> };

/** Requests that name a file by its path come from a program on this machine, never from a browser page. */
export const readsLocalPaths = (req: RequestContext): boolean => req.transport === 'ipc' || req.transport === 'cli';
