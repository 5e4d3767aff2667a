import { DEFAULT_BASE_URLS } from '@contract';
import type { HandlerTable } from '../bridge/handler-table';
import { listOllamaModelSizes, pullOllamaModel } from '../llm/ollama-pull';
import type { AppContext } from './app-context';

type ModelNames = 'models.describe' | 'models.probe' | 'ollama.list' | 'ollama.pull';

/** The model picker's side: a model's capability and context window, and Ollama's installed and pulled models. */
export const modelHandlers = (ctx: AppContext): Pick<HandlerTable, ModelNames> => ({
  'models.describe': ({ target }) => ctx.models.describe(ctx.settings.get(), target),
  'models.probe': ({ target }) => ctx.models.probe(ctx.settings.get(), target),
  'ollama.list': async ({ baseUrl }) => ({ models: await listOllamaModelSizes(baseUrl ?? DEFAULT_BASE_URLS.ollama) }),
  'ollama.pull': async ({ baseUrl, model }) => {
    await pullOllamaModel(baseUrl ?? DEFAULT_BASE_URLS.ollama, model, (p) => ctx.events.emit('ollama.pull-progress', { model, ...p }));
    ctx.models.forgetServers();
    return { ok: true, model };
  },
});
