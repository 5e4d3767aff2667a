import type { RequestInput, RequestName, RequestOutput } from '@contract';
import { createDispatcher } from './dispatch';
import type { HandlerTable } from './handler-table';

/** A request to core from the same process, answered or thrown. */
export type LocalRequest = <N extends RequestName>(name: N, input: RequestInput<N>) => Promise<RequestOutput<N>>;

/**
 * `oi`'s way into core: the dispatcher both transports call (the contract's input check before any
 * handler runs), as the `cli` transport. A failure is thrown with the handler's own words, as the
 * handler would have thrown it: the dispatcher's "<request>: " prefix is for a page's error banner.
 */
export function localRequests(handlers: HandlerTable): LocalRequest {
  const dispatch = createDispatcher(handlers);
  return async <N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestOutput<N>> => {
    const answer = await dispatch(name, input, { transport: 'cli' });
    if (answer.ok) return answer.result as RequestOutput<N>;
    const { code, message } = answer.error;
    throw new Error(code === 'handler-error' && message.startsWith(`${name}: `) ? message.slice(name.length + 2) : message);
  };
}
