import { describeIssues, isRequestName, requestNames, requests, type BridgeError, errorMessage } from '@contract';
import type { HandlerTable, RequestContext } from './handler-table';

export type DispatchResult = { ok: true; result: unknown } | { ok: false; error: BridgeError };

/**
 * The one place both transports call: refuses unknown names, validates the input with the contract's
 * schema before any handler runs, and turns handler failures into errors the renderer can show.
 */
export function createDispatcher(table: HandlerTable) {
  return async function dispatch(name: unknown, input: unknown, ctx: RequestContext): Promise<DispatchResult> {
    if (!isRequestName(name)) {
      const shown = typeof name === 'string' ? JSON.stringify(name.slice(0, 100)) : typeof name;
      return {
        ok: false,
        error: { code: 'unknown-request', message: `unknown request ${shown}; known requests: ${requestNames.join(', ')}` },
      };
    }
    const parsed = requests[name].input.safeParse(input);
    if (!parsed.success) {
      return { ok: false, error: { code: 'invalid-input', message: `${name}: ${describeIssues(parsed.error.issues)}` } };
    }
    try {
      const handler = table[name] as (input: unknown, ctx: RequestContext) => Promise<unknown>;
      return { ok: true, result: await handler(parsed.data, ctx) };
    } catch (err) {
      return { ok: false, error: { code: 'handler-error', message: `${name}: ${errorMessage(err)}` } };
    }
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
