import { DEFAULT_BASE_URLS, type Settings } from '@contract';
import { ollamaRoot } from './ollama-models';

/**
 * The context length a local server really runs a model with, where the server says so. Without it
 * the app guesses (model-catalog.ts), and a guess above the server's window means the server cuts the
 * prompt from the front without telling anyone. Asked once per (server, model) and remembered.
 *
 * - Ollama: POST /api/show → model_info["<architecture>.context_length"] (what the model supports;
 *   the app then sets num_ctx itself, capped by the ollamaMaxContext setting)
 * - LM Studio: GET /api/v0/models/<model> → loaded_context_length, else max_context_length
 * - vLLM: GET /v1/models → the model's max_model_len
 * - llama.cpp server: GET /props → default_generation_settings.n_ctx (the window each slot has)
 */

type Target = Pick<Settings, 'provider' | 'baseUrl' | 'model'>;

const ASK_TIMEOUT_MS = 3000;

export class ServerContext {
  private readonly known = new Map<string, Promise<number | null>>();

  /** The server's context length for the model, or null when it does not say (or is not a local server). */
  lengthFor(target: Target): Promise<number | null> {
    if (target.provider !== 'ollama' && target.provider !== 'openai-compatible') return Promise.resolve(null);
    const key = JSON.stringify([target.provider, target.baseUrl, target.model]);
    let found = this.known.get(key);
    if (!found) {
      found = ask(target).catch(() => null);
      this.known.set(key, found);
      // An unanswered question is asked again next time (the server may have been starting).
      void found.then((n) => n === null && this.known.delete(key));
    }
    return found;
  }

  /** Forget what a server said (a model was pulled or reloaded with another window). */
  forget(): void {
    this.known.clear();
  }
}

async function ask(target: Target): Promise<number | null> {
  if (target.provider === 'ollama') return ollamaLength(ollamaRoot(target.baseUrl ?? DEFAULT_BASE_URLS.ollama), target.model);
  if (!target.baseUrl) return null;
  const base = target.baseUrl.replace(/\/+$/, '');
  const root = ollamaRoot(base);
  for (const probe of [lmStudioLength, vllmLength, llamaCppLength]) {
    const n = await probe(base, root, target.model).catch(() => null);
    if (n) return n;
  }
  return null;
}

export async function ollamaLength(root: string, model: string): Promise<number | null> {
  const info = await getJson(`${root}/api/show`, { model });
  const modelInfo = field(info, 'model_info');
  if (!modelInfo || typeof modelInfo !== 'object') return null;
  for (const [key, value] of Object.entries(modelInfo)) {
    if (key.endsWith('.context_length') && positive(value)) return value;
  }
  return null;
}

async function lmStudioLength(_base: string, root: string, model: string): Promise<number | null> {
  const info = await getJson(`${root}/api/v0/models/${encodeURIComponent(model)}`);
  const loaded = field(info, 'loaded_context_length');
  const max = field(info, 'max_context_length');
  return positive(loaded) ? loaded : positive(max) ? max : null;
}

async function vllmLength(base: string, _root: string, model: string): Promise<number | null> {
  const list = field(await getJson(`${base}/models`), 'data');
  if (!Array.isArray(list)) return null;
  const entry = list.find((m) => field(m, 'id') === model) as unknown;
  const len = field(entry, 'max_model_len');
  return positive(len) ? len : null;
}

async function llamaCppLength(_base: string, root: string): Promise<number | null> {
  const settings = field(await getJson(`${root}/props`), 'default_generation_settings');
  const n = field(settings, 'n_ctx');
  return positive(n) ? n : null;
}

async function getJson(url: string, postBody?: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: postBody === undefined ? 'GET' : 'POST',
    ...(postBody === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(postBody) }),
    signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
  });
  if (!res.ok) return null;
  return res.json();
}

function field(value: unknown, name: string): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}

function positive(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
