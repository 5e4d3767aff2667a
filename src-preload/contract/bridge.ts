import type { EventName, EventPayload } from './events';
import type { RequestInput, RequestName, RequestOutput } from './requests';

/** What the renderer sees: one method per request name, and a typed event subscription. */
export type OiApi = {
  [N in RequestName]: (input: RequestInput<N>) => Promise<RequestOutput<N>>;
} & {
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** The error shape both transports return for a refused or failed request. */
export interface BridgeError {
  code: 'unknown-request' | 'invalid-input' | 'handler-error' | 'unauthorized' | 'too-large' | 'rate-limited';
  message: string;
}

/** Renders a zod issue list as one line a person can act on: which field, what was expected. */
export function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(input)'}: ${i.message}`).join('; ');
}
