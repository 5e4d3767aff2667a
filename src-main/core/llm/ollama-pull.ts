import { ollamaRoot } from './ollama-models';
import { ndjson } from './ollama-provider';
import { errorMessage } from '@contract/error-message';

export interface PullProgress {
  status: string;
  completed: number | null;
  total: number | null;
}

/** Installed models with their sizes on disk (GET /api/tags). */
export async function listOllamaModelSizes(
  baseUrl: string,
  signal?: AbortSignal,
): Promise<Array<{ name: string; sizeBytes: number | null }>> {
  const url = `${ollamaRoot(baseUrl)}/api/tags`;
  const res = await fetch(url, { signal: signal ?? AbortSignal.timeout(10_000) }).catch((err: unknown) => {
    throw new Error(
      `could not reach Ollama at ${ollamaRoot(baseUrl)} (is it running? start it with \`ollama serve\`): ${errorMessage(err)}`,
    );
  });
  if (!res.ok) throw new Error(`Ollama answered ${res.status} to GET ${url}`);
  const body = (await res.json()) as { models?: Array<{ name?: unknown; size?: unknown }> };
  return (body.models ?? [])
    .filter((m): m is { name: string; size?: unknown } => typeof m.name === 'string')
    .map((m) => ({ name: m.name, sizeBytes: typeof m.size === 'number' ? m.size : null }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Pulls a model (POST /api/pull), reporting Ollama's progress lines; throws with Ollama's own error. */
export async function pullOllamaModel(
  baseUrl: string,
  model: string,
  onProgress: (p: PullProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const url = `${ollamaRoot(baseUrl)}/api/pull`;
  const abort = signal ?? new AbortController().signal;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true }),
    signal: abort,
  }).catch((err: unknown) => {
    throw new Error(`could not reach Ollama at ${ollamaRoot(baseUrl)}: ${errorMessage(err)}`);
  });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new Error(`Ollama could not pull ${model}: ${errorOf(text) ?? `HTTP ${res.status}`}`);
  }
  let success = false;
  for await (const value of ndjson(res, abort)) {
    const line = value as { status?: unknown; completed?: unknown; total?: unknown; error?: unknown };
    if (typeof line.error === 'string') throw new Error(`Ollama could not pull ${model}: ${line.error}`);
    const status = typeof line.status === 'string' ? line.status : '';
    if (status === 'success') success = true;
    onProgress({
      status,
      completed: typeof line.completed === 'number' ? line.completed : null,
      total: typeof line.total === 'number' ? line.total : null,
    });
  }
  if (!success) throw new Error(`Ollama stopped pulling ${model} before it finished`);
}

function errorOf(text: string): string | null {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return typeof error === 'string' ? error : null;
  } catch {
    return text || null;
  }
}
