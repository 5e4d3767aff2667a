import { z } from 'zod';
import { errorMessage } from '@contract/error-message';

const Tags = z.object({ models: z.array(z.object({ name: z.string() }).passthrough()) });

/** Ollama's own API root for an OpenAI-compatible base URL ('http://host:11434/v1' → 'http://host:11434'). */
export function ollamaRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** The models pulled into a local Ollama, from GET /api/tags. */
export async function listOllamaModels(baseUrl: string, signal?: AbortSignal): Promise<string[]> {
  const url = `${ollamaRoot(baseUrl)}/api/tags`;
  let res: Response;
  try {
    res = await fetch(url, { signal });
  } catch (err) {
    throw new Error(
      `could not reach Ollama at ${ollamaRoot(baseUrl)} (is it running? start it with \`ollama serve\`): ${errorMessage(err)}`,
      { cause: err },
    );
  }
  if (!res.ok) throw new Error(`Ollama answered ${res.status} to GET ${url}`);
  const parsed = Tags.safeParse(await res.json());
  if (!parsed.success) throw new Error(`Ollama's model list at ${url} has an unexpected shape`);
  return parsed.data.models.map((m) => m.name).sort();
}
