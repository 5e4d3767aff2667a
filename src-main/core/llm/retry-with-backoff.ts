import { isLastingNetworkFailure } from '../providers/network-problem';
import { classifyFailure, type CallFailure } from './provider-errors';
import type { ProviderEvent } from './provider';

export interface RetryPolicy {
  /** Calls in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A retry-after longer than this is not waited for: the user is told instead. */
  maxRetryAfterMs: number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  sleep: abortableSleep,
};

export interface RetryNotice {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  failure: CallFailure;
}

/**
 * Streams a model call, opening it again after a rate limit, a server error or a dropped connection —
 * but only while nothing has been received: once text or a tool call has arrived, the partial reply
 * is the caller's to keep, and a retry could show the user (or run) something twice.
 */
export async function* streamWithRetries(
  open: () => AsyncIterable<ProviderEvent>,
  policy: RetryPolicy,
  signal: AbortSignal,
  onRetry: (notice: RetryNotice) => void,
): AsyncIterable<ProviderEvent> {
  for (let attempt = 1; ; attempt++) {
    let progressed = false;
    try {
      for await (const ev of open()) {
        if (ev.type !== 'usage' && ev.type !== 'done') progressed = true;
        yield ev;
      }
      return;
    } catch (err) {
      if (signal.aborted || progressed || attempt >= policy.maxAttempts || serverSaysNoRetry(err)) throw err;
      const failure = classifyFailure(err);
      if (failure.kind !== 'rate-limited' && failure.kind !== 'server' && failure.kind !== 'connection') throw err;
      // Nothing listening, no such host, a blocked port: seconds later it is the same, and the user should know now.
      if (failure.kind === 'connection' && isLastingNetworkFailure(failure.code, failure.detail)) throw err;
      const retryAfter = failure.kind === 'connection' ? null : failure.retryAfterMs;
      if (retryAfter !== null && retryAfter > policy.maxRetryAfterMs) throw err;
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      // Jitter keeps several windows of the app from retrying in lockstep.
      const delayMs = retryAfter ?? Math.round(backoff * (0.75 + Math.random() * 0.5));
      onRetry({ attempt, maxAttempts: policy.maxAttempts, delayMs, failure });
      await policy.sleep(delayMs, signal);
      if (signal.aborted) throw err;
    }
  }
}

/** The SDKs honour x-should-retry: false; so do we. */
function serverSaysNoRetry(err: unknown): boolean {
  const headers = (err as { headers?: unknown } | null)?.headers;
  return !!headers && typeof (headers as Headers).get === 'function' && (headers as Headers).get('x-should-retry') === 'false';
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
