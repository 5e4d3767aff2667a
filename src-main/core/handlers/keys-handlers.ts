import { KeyProvider, keyService, type KeyStatus, type ProviderKind } from '@contract';
import type { HandlerTable } from '../bridge/handler-table';
import { planListing, type ListingPlan } from '../providers/key-destination';
import { ListModelsError, listModels } from '../providers/list-models';
import { providerAccount } from '../secrets/secret-store';
import type { AppContext } from './app-context';
import { errorMessage } from '@contract/error-message';

const PROVIDERS: KeyProvider[] = KeyProvider.options;

type KeysNames = 'keys.list' | 'keys.set' | 'keys.delete' | 'keys.test';

/**
 * The keys screen. Keys arrive from the renderer and go into the keychain; what goes back is only
 * where a key comes from and its last four characters.
 */
export const keysHandlers = (ctx: AppContext): Pick<HandlerTable, KeysNames> => {
  const vault = ctx.keyVault;
  const status = async (provider: KeyProvider): Promise<KeyStatus> => {
    const account = providerAccount(provider);
    const d = await vault.resolver.describe(account);
    return { provider, source: d.source, last4: d.last4, envVariable: vault.env.variableFor(account) };
  };
  return {
    'keys.list': async () => ({ storage: vault.store.kind, keys: await Promise.all(PROVIDERS.map(status)) }),
    'keys.set': async ({ provider, key }) => {
      await vault.store.set(providerAccount(provider), key.trim());
      vault.changed();
      return status(provider);
    },
    'keys.delete': async ({ provider }) => {
      await vault.store.delete(providerAccount(provider));
      vault.changed();
      return status(provider);
    },
    'keys.test': async ({ provider, key, baseUrl }) => {
      // A service's key is tested against the service itself, through the OpenAI protocol. Any other
      // stored key goes only where settings say (key-destination.ts); a new URL is tried with a typed key.
      const service = keyService(provider);
      const kind: ProviderKind = service ? 'openai-compatible' : (provider as ProviderKind);
      const typed = key?.trim();
      const plan: ListingPlan = service
        ? typed
          ? { kind: 'typed', key: typed, baseUrl: service.baseUrl }
          : { kind: 'stored', baseUrl: service.baseUrl }
        : planListing(kind, { key, baseUrl }, ctx.settings.get());
      if (plan.kind === 'no-stored-key') {
        return {
          ok: false,
          message: `To test ${new URL(plan.baseUrl).origin}, type the key here: a saved key is only sent to the provider's own address or the base URL saved in Settings.`,
          problem: 'key',
        };
      }
      const useKey = plan.kind === 'typed' ? plan.key : await vault.resolver.get(providerAccount(provider));
      if (!useKey && provider !== 'openai-compatible')
        return { ok: false, message: 'There is no key to test: type one, or save one first.', problem: 'key' };
      try {
        return { ok: true, models: await listModels({ provider: kind, key: useKey, baseUrl: plan.baseUrl }) };
      } catch (err) {
        return { ok: false, message: errorMessage(err), problem: err instanceof ListModelsError ? err.problem : 'other' };
      }
    },
  };
};
