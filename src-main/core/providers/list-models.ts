import { DEFAULT_BASE_URLS, EXAMPLE_COMPATIBLE_BASE_URL, type ProviderKind } from '@contract';

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

/** The provider's model ids, sorted; throws an Error whose message says what went wrong (never the key). */
export async function listModels(req: ListModelsRequest): Promise<string[]> {
  const { url, headers } = endpoint(req);
  const signal = AbortSignal.timeout(req.timeoutMs ?? 15_000);
  let res: Response;
  try {
    res = await fetch(url, { headers, signal });
  } catch (err) {
    throw new Error(`could not reach ${new URL(url).origin}: ${causeOf(err)}`, { cause: err });
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new Error(redact(`${res.status} ${res.statusText}: ${apiMessage(body) ?? 'no details'}`, req.key));
  return modelIds(body).sort();
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
      return { url: `${trim(req.baseUrl ?? DEFAULT_BASE_URLS.ollama)}/models`, headers: req.key ? { authorization: `Bearer ${req.key}` } : {} };
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
  if (typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string') return (err as { message: string }).message;
  return null;
}

function causeOf(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError') return 'no answer in time';
    const cause = (err as Error & { cause?: { code?: string } }).cause;
    return cause?.code ?? err.message;
  }
  return String(err);
}

/** Some providers quote the key they refused; the UI must never show it. */
function redact(message: string, key: string | null): string {
  if (!key) return message;
  let out = message.split(key).join('[redacted]');
  // Servers also quote a masked form (first and last characters); drop anything longer than 8 of it.
  if (key.length > 12) out = out.split(key.slice(-8)).join('[redacted]');
  return out;
}
