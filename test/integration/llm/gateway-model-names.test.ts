import { describe, expect, it } from 'vitest';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { openNodeSettingsStore } from '../../../src-main/core/settings/node-settings-store';
import { cliEnv, runOi } from '../../support/cli-process';
import { useCliRun } from '../../support/cli-run';

const cli = useCliRun();

describe('Anthropic through a gateway', () => {
  it('saves and talks to a model named anything when a custom base URL is saved', async () => {
    const { llm, dir } = await cli.start('oi-gateway-');
    llm.enqueue({ kind: 'text', text: 'Hello from the gateway.' });
    // Saved the way Settings → Model saves it (the settings file in the data folder), then used by oi.
    const saved = openNodeSettingsStore({ dir: dir });
    saved.update({ provider: 'anthropic', model: 'bedrock/sonnet-alias', baseUrl: llm.anthropicBaseUrl });
    const result = await runOi(['-m', 'say hello'], cliEnv(dir));

    expect(result.stderr).not.toMatch(/not a Claude model/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Hello from the gateway.');
    const chat = llm.requests.filter((r) => r.path === '/v1/messages' && JSON.stringify(r.body).includes('say hello'));
    expect(chat.map((r) => (r.body as { model: string }).model)).toEqual(['bedrock/sonnet-alias']);
  });

  it("keeps refusing a non-Claude name at Anthropic's own API", () => {
    const store = new MemorySettingsStore();
    expect(() => store.update({ provider: 'anthropic', model: 'gpt-4.1' })).toThrow(/gpt-4\.1 is not a Claude model/);
    expect(() => store.update({ provider: 'anthropic', model: 'gpt-4.1', baseUrl: 'https://api.anthropic.com' })).toThrow(
      /not a Claude model/,
    );
    expect(store.update({ provider: 'anthropic', model: 'sonnet', baseUrl: 'https://gateway.example/anthropic' }).model).toBe('sonnet');
  });
});
