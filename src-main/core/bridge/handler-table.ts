import type { RequestInputParsed, RequestName, RequestOutput } from '@contract';

/** Context a transport passes with each request, for handlers that care how they were reached. */
export interface RequestContext {
  transport: 'ipc' | 'websocket';
}

export type Handler<N extends RequestName> = (input: RequestInputParsed<N>, ctx: RequestContext) => Promise<RequestOutput<N>>;

/** One handler per contract request; the type makes a missing or extra name a compile error. */
export type HandlerTable = { [N in RequestName]: Handler<N> };
