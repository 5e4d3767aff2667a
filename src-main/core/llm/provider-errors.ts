// What a failed model call means for the agent, read from the error's shape rather than its class:
// the two SDKs have parallel but distinct classes, and a connection cut mid-body surfaces as undici's
// TypeError('terminated') or AnthropicError('terminated'), which are neither SDK's API errors.

import type { ProviderKind } from '@contract';
import { describeNetworkFailure, innermostMessage, networkCode } from '../providers/network-problem';

export type CallFailure =
  | { kind: 'rate-limited'; retryAfterMs: number | null; message: string }
  | { kind: 'server'; status: number; retryAfterMs: number | null; message: string }
  /** `code`: the network error behind it (ECONNREFUSED, ENOTFOUND…), when one is known. */
  | { kind: 'connection'; message: string; code: string | null; detail?: string | null }
  | { kind: 'tools-refused'; message: string }
  | { kind: 'context-too-long'; message: string }
  | { kind: 'auth'; message: string }
  | { kind: 'other'; message: string };

interface ErrorShape {
  status?: unknown;
  headers?: unknown;
  message?: unknown;
  name?: unknown;
  code?: unknown;
  cause?: unknown;
}

export function classifyFailure(err: unknown): CallFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorShape;
  const message = typeof e.message === 'string' ? e.message : String(err);
  const status = typeof e.status === 'number' ? e.status : null;
  if (status === 429) return { kind: 'rate-limited', retryAfterMs: retryAfterMs(e.headers), message };
  if (status !== null && status >= 500) return { kind: 'server', status, retryAfterMs: retryAfterMs(e.headers), message };
  if (status === 401 || status === 403) return { kind: 'auth', message };
  if (status !== null && status >= 400) {
    if (refusesTools(message)) return { kind: 'tools-refused', message };
    if (/context|too long|maximum.*tokens|prompt is too long|token limit/i.test(message)) return { kind: 'context-too-long', message };
    return { kind: 'other', message };
  }
  if (status === null && isConnectionFailure(e, message))
    return { kind: 'connection', message, code: networkCode(err), detail: innermostMessage(err) };
  return { kind: 'other', message };
}

/**
 * Servers word it differently: Ollama "… does not support tools", vLLM '"auto" tool choice requires
 * --enable-auto-tool-choice', llama.cpp "tools param requires --jinja", others "tool use is not supported".
 */
function refusesTools(message: string): boolean {
  return /does not support tools|tools? (use |calling |calls )?(is |are )?not supported|not support(ed)? .*tool|tool.?choice|--jinja|tools param|unrecognized.*tools|unknown.*tools|extra.*tools/i.test(
    message,
  );
}

function isConnectionFailure(e: ErrorShape, message: string): boolean {
  if (e.name === 'APIConnectionError' || e.name === 'APIConnectionTimeoutError') return true;
  if (networkCode(e) !== null && /fetch failed|connect|getaddrinfo/i.test(message)) return true;
  // The OpenAI SDK's APIConnectionError keeps the plain name 'Error': its message is what marks it.
  if (
    message === 'terminated' ||
    /^connection error\.?$|fetch failed|socket hang up|ECONNRESET|ECONNREFUSED|EPIPE|network|premature close/i.test(message)
  )
    return true;
  const cause = e.cause as ErrorShape | undefined;
  return typeof cause?.code === 'string' && /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(cause.code);
}

/** retry-after as milliseconds (seconds or an HTTP date; OpenAI also sends retry-after-ms). */
function retryAfterMs(headers: unknown): number | null {
  const get = (name: string): string | null => {
    if (headers && typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
    if (headers && typeof headers === 'object') {
      const v = (headers as Record<string, unknown>)[name];
      return typeof v === 'string' ? v : null;
    }
    return null;
  };
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = get('retry-after');
  if (raw === null) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

const LABEL: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
  'openai-compatible': 'OpenAI-compatible',
};

/**
 * A short, actionable sentence for the user about a failure that will not be retried: the address that
 * was called, whether the network or the key is at fault, and what to try.
 */
export function describeFailure(failure: CallFailure, provider: ProviderKind, endpoint: string): string {
  const api = `the ${LABEL[provider]} API at ${endpoint}`;
  switch (failure.kind) {
    case 'auth':
      return `${api} refused the key (${failure.message}). The network is fine; the key is not: check it in Settings → API keys, or the environment variable that holds it.`;
    case 'context-too-long':
      return `the conversation is too long for the model (${failure.message}). Set a smaller context window in Settings, or start a new conversation.`;
    case 'rate-limited':
      return `${api} is still rate-limiting after several retries (${failure.message}). Wait a minute and send again.`;
    case 'server':
      return `${api} kept failing with ${failure.status} (${failure.message}). The key and the network are fine; the service is not: try again later.`;
    case 'connection':
      return describeNetworkFailure(endpoint, failure.code, /timed? ?out/i.test(failure.message), failure.detail ?? null);
    default:
      return failure.message;
  }
}
