import { applySettingsPatch, type Settings, type SettingsPatch } from '@contract';
import { SUGGESTED_MODELS } from '../providers/suggested-models';

/**
 * Completes a settings change that touches the provider, model or base URL. A new provider without a
 * model named gets the model (and base URL) last used with it, else its usual model, so a switch never
 * leaves a model the provider cannot serve ("Anthropic · gpt-4.1"); what was last used with each
 * provider is recorded in `providerModels`. A patch touching none of the three is returned as it is:
 * saving a key, a theme or a limit changes nothing else.
 */
export function withProviderMemory(current: Settings, patch: SettingsPatch): SettingsPatch {
  if (patch.provider === undefined && patch.model === undefined && patch.baseUrl === undefined) return patch;
  const completed: SettingsPatch = { ...patch };
  const provider = patch.provider ?? current.provider;
  if (provider !== current.provider) {
    const remembered = current.providerModels[provider];
    if (patch.model === undefined) completed.model = remembered?.model ?? SUGGESTED_MODELS[provider]?.[0] ?? current.model;
    if (patch.baseUrl === undefined) completed.baseUrl = remembered?.baseUrl ?? null;
  }
  const next = applySettingsPatch(current, completed);
  // The provider left behind is remembered as it was (settings written before this field have none).
  completed.providerModels = {
    ...current.providerModels,
    [current.provider]: { model: current.model, baseUrl: current.baseUrl },
    [next.provider]: { model: next.model, baseUrl: next.baseUrl },
  };
  return completed;
}
