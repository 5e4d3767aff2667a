import { errorMessage } from '@contract';
import type { Settings } from '@contract';
import type { App } from '../core/app';
import { keyFor } from '../core/llm/provider-factory';
import { listModels } from '../core/providers/list-models';

/**
 * At the start of a chat: does the model server answer? Asked only of servers chosen by URL or run
 * locally (a base URL, Ollama) — the ones that are often not running; the providers' own APIs are not
 * called just to start. Returns a sentence naming the URL when it does not answer, else null.
 */
export async function probeEndpoint(app: App, settings: Pick<Settings, 'provider' | 'baseUrl' | 'providerModels'>): Promise<string | null> {
  if (!settings.baseUrl && settings.provider !== 'ollama') return null;
  try {
    const key = await keyFor(app.context.keys, settings, settings);
    await listModels({ provider: settings.provider, key, baseUrl: settings.baseUrl, timeoutMs: 5000 });
    return null;
  } catch (err) {
    const message = errorMessage(err);
    // A server that answers "unauthorised" is there; the key question is the first call's to report.
    if (/^(401|403)\b/.test(message)) return null;
    const where = settings.baseUrl ?? 'Ollama';
    return /could not reach/.test(message)
      ? `The model server does not answer: ${message} (base URL ${where}).`
      : `The model server at ${where} answered oddly: ${message}.`;
  }
}
