import type { SettingsPatch } from '@contract';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { startScriptedLlm } from '../fixtures/llm-server';
import { startAppUnderTest, type AppUnderTest } from './app-under-test';

/** The two wire protocols a test runs its turns over (each through its official SDK). */
export type WireProtocol = 'openai' | 'anthropic';

/**
 * The real app (startAppUnderTest) against a scripted model server of its own, spoken to over
 * `protocol`, with `key` saved for that provider; `patch` on top of the provider settings. close()
 * ends the app, then the server.
 */
export async function startAppOver(protocol: WireProtocol, key: string, patch: SettingsPatch = {}): Promise<AppUnderTest> {
  const llm = await startScriptedLlm();
  const secrets = new MemorySecretStore();
  await secrets.set(`provider:${protocol}`, key);
  const settings =
    protocol === 'anthropic'
      ? { provider: 'anthropic' as const, baseUrl: llm.anthropicBaseUrl, model: 'claude-sonnet-4-6' }
      : { provider: 'openai' as const, baseUrl: llm.openaiBaseUrl, model: 'gpt-test' };
  // A server passed in is the caller's to close: closed here too should the app fail to start.
  const aut = await startAppUnderTest({ ...settings, ...patch }, { llm, secrets }).catch(async (error: unknown) => {
    await llm.close();
    throw error;
  });
  return {
    ...aut,
    async close(opts) {
      await aut.close(opts);
      await llm.close();
    },
  };
}
