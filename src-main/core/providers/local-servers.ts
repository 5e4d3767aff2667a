import { DEFAULT_BASE_URLS, EXAMPLE_COMPATIBLE_BASE_URL, type LocalServer, type ProviderKind } from '@contract';
import { modelIds } from './list-models';

/** A model server people run on their own machine, and how to ask it for its models. */
export interface LocalServerSpec {
  id: string;
  name: string;
  provider: ProviderKind;
  port: number;
  /** Path that lists models: Ollama's own /api/tags, or the OpenAI-style /v1/models. */
  listPath: '/api/tags' | '/v1/models';
}

/** Their usual ports. The app takes a different list (tests point these at a scripted server). */
export const DEFAULT_LOCAL_SERVERS: LocalServerSpec[] = [
  { id: 'ollama', name: 'Ollama', provider: 'ollama', port: portOf(DEFAULT_BASE_URLS.ollama), listPath: '/api/tags' },
  { id: 'lmstudio', name: 'LM Studio', provider: 'openai-compatible', port: portOf(EXAMPLE_COMPATIBLE_BASE_URL), listPath: '/v1/models' },
  { id: 'jan', name: 'Jan', provider: 'openai-compatible', port: 1337, listPath: '/v1/models' },
];

/** Asks each server on 127.0.0.1, in parallel, briefly; those that answer with models are returned. */
export async function detectLocalServers(specs: LocalServerSpec[], timeoutMs = 1200): Promise<LocalServer[]> {
  const found = await Promise.all(specs.map((spec) => probe(spec, timeoutMs)));
  return found.filter((s): s is LocalServer => s !== null);
}

async function probe(spec: LocalServerSpec, timeoutMs: number): Promise<LocalServer | null> {
  const origin = `http://127.0.0.1:${spec.port}`;
  try {
    const res = await fetch(origin + spec.listPath, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return null;
    const models = modelIds(await res.json()).sort();
    // Both Ollama and the others speak the OpenAI API under /v1, which is what the chat client uses.
    return { id: spec.id, name: spec.name, provider: spec.provider, baseUrl: `${origin}/v1`, models };
  } catch {
    return null; // nothing listening, or not a model server: not offered
  }
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}
