import { DEFAULT_BASE_URLS, EXAMPLE_COMPATIBLE_BASE_URL, type ProviderKind } from '@contract';
import { describeNetworkFailure, innermostMessage, networkCode } from './network-problem';
import { errorMessage } from '@contract/error-message';

// Model listing over plain HTTP, for the keys screen's "Test" and the model picker. Kept apart from the
// chat clients on purpose: it needs only one GET, and it must work with a key that is not saved yet.

const ANTHROPIC_VERSION = '2023-06-01';

export interface ListModelsRequest {
  provider: ProviderKind;
  key: string | null;
  /** The endpoint as settings hold it (OpenAI-style base URL ending in /v1); null → the provider's own. */
  baseUrl: string | null;
  timeoutMs?: number;
}

/** What kept a model list from coming back: the network, the key, the server, or something else. */
export type ListProblem = 'network' | 'key' | 'server' | 'other';

/** A failed listing: the message names the URL and what to try; it never holds the key. */
export class ListModelsError extends Error {
  constructor(
    message: string,
    readonly problem: ListProblem,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The provider's model ids, sorted; throws a ListModelsError saying what went wrong (never the key). */
export async function listModels(req: ListModelsRequest): Promise<string[]> {
  const { url, headers } = endpoint(req);
  // Messages name the address without its query (Anthropic's ?limit=1000 says nothing to the user).
  const shown = url.split('?')[0] ?? url;
  const signal = AbortSignal.timeout(req.timeoutMs ?? 15_000);
  let res: Response;
  try {
    res = await fetch(url, { headers, signal });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    throw new ListModelsError(describeNetworkFailure(shown, networkCode(err), timedOut, innermostMessage(err)), 'network', { cause: err });
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const details = redact(`${res.status} ${res.statusText}: ${apiMessage(body) ?? 'no details'}`, req.key);
    if (res.status === 401 || res.status === 403) {
      throw new ListModelsError(
        `${shown} refused the key (${details}). The server was reached; the key is wrong, expired or lacks access.`,
        'key',
      );
    }
    if (res.status === 404) {
      throw new ListModelsError(
        `${shown} does not exist (${details}): check the base URL (OpenAI-compatible servers usually end in /v1).`,
        'other',
      );
    }
    throw new ListModelsError(`${shown} answered ${details}.`, res.status >= 500 ? 'server' : 'other');
  }
  try {
    return modelIds(body).sort();
  } catch (err) {
    throw new ListModelsError(
      `${shown} ${errorMessage(err).replace(/^the server /, '')}: is this the base URL of a model server?`,
      'other',
      { cause: err },
    );
  }
}

function endpoint(req: ListModelsRequest): { url: string; headers: Record<string, string> } {
  const trim = (u: string) => u.replace(/\/+$/, '');
  switch (req.provider) {
    case 'anthropic': {
      if (!req.key) throw new Error('no Anthropic API key');
      const base = trim(req.baseUrl ?? DEFAULT_BASE_URLS.anthropic).replace(/\/v1$/, '');
      return { url: `${base}/v1/models?limit=1000`, headers: { 'x-api-key': req.key, 'anthropic-version': ANTHROPIC_VERSION } };
    }
    case 'openai':
      if (!req.key) throw new Error('no OpenAI API key');
      return { url: `${trim(req.baseUrl ?? DEFAULT_BASE_URLS.openai)}/models`, headers: { authorization: `Bearer ${req.key}` } };
    case 'ollama':
      return {
        url: `${trim(req.baseUrl ?? DEFAULT_BASE_URLS.ollama)}/models`,
        headers: req.key ? { authorization: `Bearer ${req.key}` } : {},
      };
    case 'openai-compatible':
      if (!req.baseUrl) throw new Error(`an OpenAI-compatible server needs a base URL (for example ${EXAMPLE_COMPATIBLE_BASE_URL})`);
      return { url: `${trim(req.baseUrl)}/models`, headers: req.key ? { authorization: `Bearer ${req.key}` } : {} };
  }
}

/** OpenAI, Anthropic and Ollama's /v1 all answer { data: [{ id }] }; Ollama's /api/tags answers { models: [{ name }] }. */
export function modelIds(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) throw new Error('the server answered with something that is not a model list');
  const record = body as { data?: unknown; models?: unknown };
  const list = Array.isArray(record.data) ? record.data : Array.isArray(record.models) ? record.models : null;
  if (!list) throw new Error('the server answered without a model list');
  const ids: string[] = [];
  for (const m of list) {
    if (typeof m !== 'object' || m === null) continue;
    const { id, name } = m as { id?: unknown; name?: unknown };
    if (typeof id === 'string') ids.push(id);
    else if (typeof name === 'string') ids.push(name);
  }
  return ids;
}

function apiMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const err = (body as { error?: unknown }).error;
  if (typeof err === 'string') return err;
  if (typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string')
    return (err as { message: string }).message;
  return null;
}

/** Some providers quote the key they refused; the UI must never show it. */
function redact(message: string, key: string | null): string {
  if (!key) return message;
  let out = message.split(key).join('[redacted]');
  // Servers also quote a masked form (first and last characters); drop anything longer than 8 of it.
  if (key.length > 12) out = out.split(key.slice(-8)).join('[redacted]');
  return out;
}
