import { DEFAULT_BASE_URLS, errorMessage, KEY_SERVICES, keyServiceAt } from '@contract';
import { keyFor } from '../llm/provider-factory';
import type { HandlerTable } from '../bridge/handler-table';
import { detectLocalServers } from '../providers/local-servers';
import { heldBackMessage, planListing } from '../providers/key-destination';
import { listModels } from '../providers/list-models';
import { SUGGESTED_MODELS } from '../providers/suggested-models';
import { providerAccount } from '../secrets/secret-store';
import type { AppContext } from './app-context';

type ProviderNames = 'providers.status' | 'providers.detect' | 'providers.models';

/** First run and the model picker: what can be used now, what is on this machine, which models. */
export const providerHandlers = (ctx: AppContext): Pick<HandlerTable, ProviderNames> => ({
  'providers.status': async () => {
    const s = ctx.settings.get();
    switch (s.provider) {
      case 'openai':
      case 'anthropic': {
        const has = (await ctx.keyVault.resolver.describe(providerAccount(s.provider))).source !== null;
        return has
          ? { ready: true, reason: null }
          : { ready: false, reason: `no ${s.provider === 'openai' ? 'OpenAI' : 'Anthropic'} API key` };
      }
      case 'ollama':
        return { ready: true, reason: null };
      case 'openai-compatible': {
        if (!s.baseUrl) return { ready: false, reason: 'the OpenAI-compatible provider has no base URL' };
        // A hosted service needs its key; a server of one's own may not.
        const service = keyServiceAt(s.baseUrl);
        if (service && !(await keyFor(ctx.keyVault.resolver, s, s))) return { ready: false, reason: `no ${service.label} API key` };
        return { ready: true, reason: null };
      }
    }
  },
  'providers.detect': async () => {
    const env = [];
    for (const provider of ['openai', 'anthropic'] as const) {
      const variable = ctx.keyVault.env.variableFor(providerAccount(provider));
      if (variable) env.push({ provider, variable, suggestedModels: SUGGESTED_MODELS[provider] ?? [] });
    }
    for (const service of KEY_SERVICES) {
      const variable = ctx.keyVault.env.variableFor(providerAccount(service.id));
      if (variable)
        env.push({
          provider: 'openai-compatible' as const,
          variable,
          suggestedModels: [service.defaultModel],
          service: { id: service.id, label: service.label, baseUrl: service.baseUrl },
        });
    }
    return { env, local: await detectLocalServers(ctx.localServers) };
  },
  'providers.models': async ({ provider, baseUrl }) => {
    // A stored key goes only where settings say (key-destination.ts): a URL named by the request is
    // asked without it, which is all a local server usually needs — except a hosted service's own
    // key, which may always go to that service's own host.
    const plan = planListing(provider, { baseUrl }, ctx.settings.get());
    if (plan.kind === 'no-stored-key') {
      const service = provider === 'openai-compatible' ? keyServiceAt(plan.baseUrl) : undefined;
      const key = service ? await ctx.keyVault.resolver.get(providerAccount(service.id)) : null;
      try {
        return { models: await listModels({ provider, key, baseUrl: plan.baseUrl }) };
      } catch (err) {
        if ((await ctx.keyVault.resolver.describe(providerAccount(provider))).source === null) throw err;
        throw new Error(heldBackMessage(provider, plan.baseUrl, errorMessage(err)), { cause: err });
      }
    }
    // keyFor: a saved URL of a hosted service gets that service's key, as the chat does.
    const key = await keyFor(ctx.keyVault.resolver, { provider, baseUrl: plan.baseUrl }, ctx.settings.get());
    return {
      models: await listModels({
        provider,
        key,
        baseUrl: provider === 'ollama' ? (plan.baseUrl ?? DEFAULT_BASE_URLS.ollama) : plan.baseUrl,
      }),
    };
  },
});
