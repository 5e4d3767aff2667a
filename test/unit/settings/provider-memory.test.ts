import { describe, expect, it } from 'vitest';
import { applySettingsPatch, defaultSettings, type Settings, type SettingsPatch } from '@contract';
import { pairingProblem } from '../../../src-main/core/llm/model-pairing';
import { withProviderMemory } from '../../../src-main/core/settings/provider-memory';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';

const apply = (s: Settings, patch: SettingsPatch) => applySettingsPatch(s, withProviderMemory(s, patch));

describe('switching providers', () => {
  it('gives a new provider a model it serves, and brings back what was used with it before', () => {
    let s = apply(defaultSettings, { provider: 'openai-compatible', model: 'qwen2.5-coder', baseUrl: 'http://127.0.0.1:1234/v1' });
    s = apply(s, { provider: 'anthropic' });
    expect(s).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: null });
    expect(pairingProblem(s)).toBeNull();
    s = apply(s, { model: 'claude-opus-4-1' });
    s = apply(s, { provider: 'openai-compatible' });
    expect(s).toMatchObject({ provider: 'openai-compatible', model: 'qwen2.5-coder', baseUrl: 'http://127.0.0.1:1234/v1' });
    s = apply(s, { provider: 'anthropic' });
    expect(s.model).toBe('claude-opus-4-1');
  });

  it('remembers the provider left behind even when it was set before memory existed', () => {
    const before = applySettingsPatch(defaultSettings, {
      provider: 'openai-compatible',
      model: 'qwen',
      baseUrl: 'http://127.0.0.1:1234/v1',
    });
    expect(before.providerModels).toEqual({});
    const back = apply(apply(before, { provider: 'anthropic' }), { provider: 'openai-compatible' });
    expect(back).toMatchObject({ model: 'qwen', baseUrl: 'http://127.0.0.1:1234/v1' });
  });

  it('changes nothing else for a patch that does not touch the model', () => {
    const s = apply(defaultSettings, { provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:1/v1' });
    expect(withProviderMemory(s, { theme: 'dark' })).toEqual({ theme: 'dark' });
  });

  it('refuses an impossible provider and model pair in the settings', () => {
    const store = new MemorySettingsStore();
    expect(() => store.update({ provider: 'anthropic' })).toThrow(/gpt-4\.1 is not a Claude model/);
    expect(() => store.update({ model: 'claude-sonnet-4-5' })).toThrow(/Claude model, which OpenAI does not serve/);
    expect(store.get()).toMatchObject({ provider: 'openai', model: 'gpt-4.1' });
    // Through another endpoint the OpenAI protocol may reach any model.
    expect(store.update({ model: 'claude-sonnet-4-5', baseUrl: 'http://127.0.0.1:4000/v1' }).model).toBe('claude-sonnet-4-5');
  });
});
