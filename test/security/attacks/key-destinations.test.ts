import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { requests, type RequestName } from '@contract';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { keyFor } from '../../../src-main/core/llm/provider-factory';
import { OpenAiProvider } from '../../../src-main/core/llm/openai-provider';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';

// Issue 24, finding 3: stored keys went to a URL a request named — `models.probe` sent the stored
// OpenAI and OpenAI-compatible keys to an echo server and its answer carried them back over the
// socket; `conversation.set-model` with a base URL, then `chat.send`, did the same; the Anthropic key
// reached /v1/messages on the named URL. The broker (provider-factory.ts `keyFor`, key-destination.ts)
// lets a stored key go only to its provider's own endpoint or the base URL saved in Settings. Every
// request whose input can carry a URL is found by walking the contract's schemas, so a request added
// later is attacked here too, or this test fails until it is.

const KEYS = {
  'provider:openai': 'sk-stored-openai-7f3a',
  'provider:anthropic': 'sk-ant-stored-9b2c',
  'provider:openai-compatible': 'sk-stored-compatible-41d0',
  'provider:openrouter': 'sk-or-stored-55e1',
  'provider:groq': 'gsk-stored-groq-6c7d',
};
const SECRETS = Object.values(KEYS);

/** Requests whose URL field only saves what the person typed in Settings: no stored secret goes with them. */
const SAVE_ONLY: Partial<Record<RequestName, string>> = {
  'settings.set': 'the base URLs the person saves are where their keys may go; saving sends nothing',
  'mcp.save': "a server entry is saved with its own headers and variables, sent only to that entry's server",
  'profiles.save':
    'a profile is saved in the data folder and sends nothing; applying it saves its base URL in Settings, as settings.set would',
};

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

describe('a stored key never goes to a URL a request names', () => {
  let aut: AppUnderTest;
  let dispatch: Dispatcher;
  let echo: Server;
  let echoUrl: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    echo = createServer((req, res) => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      // Everything it was sent comes back, as an echo server an attacker runs would send it.
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `you sent ${JSON.stringify(req.headers)}` } }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const secrets = new MemorySecretStore();
    for (const [account, key] of Object.entries(KEYS)) await secrets.set(account, key);
    // A Jupyter token saved for another server on the same host.
    await secrets.set(`kernel:${echoUrl}/other-server`, 'jupyter-token-stored-88aa');
    aut = await startAppUnderTest({}, { secrets });
    dispatch = createDispatcher(aut.app.handlers);
  });
  afterAll(async () => {
    await aut?.close();
    await new Promise((resolve) => echo?.close(resolve));
  });

  const call = async (name: RequestName, input: unknown): Promise<string> =>
    JSON.stringify(await dispatch(name, input, { transport: 'websocket' }));
  const leaked = (): string[] => SECRETS.filter((key) => JSON.stringify(seen).includes(key));

  const ATTACKS: Partial<Record<RequestName, () => Promise<string>>> = {
    'models.probe': async () =>
      (
        await Promise.all(
          ['openai', 'anthropic', 'openai-compatible'].map((provider) =>
            call('models.probe', { target: { provider, model: 'm', baseUrl: `${echoUrl}/v1` } }),
          ),
        )
      ).join(),
    'models.describe': () => call('models.describe', { target: { provider: 'openai', model: 'gpt-test', baseUrl: `${echoUrl}/v1` } }),
    'conversation.set-model': async () => {
      const conv = await aut.app.handlers['conversation.create']({}, { transport: 'websocket' });
      const out = await Promise.all(
        ['openai', 'anthropic'].map((provider) =>
          call('conversation.set-model', { conversationId: conv.id, choice: { provider, model: 'gpt-test', baseUrl: `${echoUrl}/v1` } }),
        ),
      );
      await call('chat.send', { conversationId: conv.id, text: 'hello' });
      await aut.app.context.agent.idle(conv.id);
      const saved = await aut.app.handlers['conversation.get']({ conversationId: conv.id }, { transport: 'websocket' });
      return out.join() + JSON.stringify(saved);
    },
    'providers.models': () => call('providers.models', { provider: 'openai', baseUrl: `${echoUrl}/v1` }),
    'keys.test': () => call('keys.test', { provider: 'openai', baseUrl: `${echoUrl}/v1` }),
    'ollama.list': () => call('ollama.list', { baseUrl: echoUrl }),
    'ollama.pull': () => call('ollama.pull', { baseUrl: echoUrl, model: 'tiny' }),
    'kernels.specs': () => call('kernels.specs', { url: `${echoUrl}/jupyter` }),
    'kernels.connect': async () => {
      const conv = await aut.app.handlers['conversation.create']({}, { transport: 'websocket' });
      return call('kernels.connect', { conversationId: conv.id, url: `${echoUrl}/jupyter` });
    },
  };

  it('finds every request that can carry a URL, and each is attacked here or only saves', () => {
    const carriesUrl = Object.entries(requests)
      .filter(([, spec]) => {
        const json = JSON.stringify(z.toJSONSchema(spec.input as z.ZodType, { unrepresentable: 'any' }));
        return /"format":"uri"|"pattern":"[^"]*https\?/.test(json);
      })
      .map(([name]) => name)
      .sort();
    expect(carriesUrl).toEqual([...Object.keys(ATTACKS), ...Object.keys(SAVE_ONLY)].sort());
  });

  it.each(Object.keys(ATTACKS))('%s: the named server gets no stored key, and none comes back', async (name) => {
    seen.length = 0;
    const answer = await ATTACKS[name as RequestName]!();
    // The attack got past the contract's checks (a refusal of the input would prove nothing); the app
    // then either asked the named server without the key or refused to call it at all.
    expect(answer).not.toContain('"code":"invalid-input"');
    expect(leaked()).toEqual([]);
    expect(JSON.stringify(seen)).not.toContain('jupyter-token-stored-88aa');
    for (const key of SECRETS) expect(answer).not.toContain(key);
  });

  it('twin: the same probe at the base URL saved in Settings does carry the stored key there', async () => {
    aut.app.context.settings.update({ provider: 'openai', baseUrl: `${echoUrl}/v1` });
    try {
      seen.length = 0;
      await call('models.probe', { target: { provider: 'openai', model: 'm', baseUrl: `${echoUrl}/v1` } });
      expect(JSON.stringify(seen)).toContain(KEYS['provider:openai']);
    } finally {
      aut.app.context.settings.update({ baseUrl: aut.llm.openaiBaseUrl });
    }
  });

  it("a hosted service's key goes only to that service's own host, over HTTPS", async () => {
    seen.length = 0;
    // A server that calls itself OpenRouter by its path is not openrouter.ai.
    await call('models.probe', { target: { provider: 'openai-compatible', model: 'm', baseUrl: `${echoUrl}/api/v1/openrouter.ai` } });
    expect(JSON.stringify(seen)).not.toContain(KEYS['provider:openrouter']);
  });

  it("the broker hands a hosted service's key to that service's host only, and no other destination gets one", async () => {
    // keyFor itself, with the app's own secret store: no test can reach openrouter.ai, so the choice
    // is asserted where it is made. The saved destination is the scripted model server, as in the app.
    const secrets = aut.app.context.keys;
    const saved = { provider: 'openai-compatible' as const, baseUrl: `${echoUrl}/saved/v1`, providerModels: {} };
    const compatible = (baseUrl: string) => keyFor(secrets, { provider: 'openai-compatible', baseUrl }, saved);
    // It chooses: each service's own key for its own host.
    expect(await compatible('https://openrouter.ai/api/v1')).toBe(KEYS['provider:openrouter']);
    expect(await compatible('https://api.groq.com/openai/v1')).toBe(KEYS['provider:groq']);
    // Any other destination, however it names the service, gets no stored key.
    for (const named of [
      'http://openrouter.ai/api/v1', // not over HTTPS
      'https://openrouter.ai.evil.example/api/v1', // the name as a prefix of another host
      'https://evilopenrouter.ai/api/v1', // the name as a suffix of another label
      'https://evil.example/openrouter.ai/v1', // the name in the path
      'https://user@evil.example/api.groq.com', // the name after user info
      `${echoUrl}/api/v1/openrouter.ai`,
    ])
      expect(await compatible(named), named).toBeNull();
  });

  it("twin: the hosted service's key, once chosen for a destination that is not its host, reaches that server", async () => {
    // What the host check stops: the key the broker picks for openrouter.ai, sent with a probe to the
    // echo server, is read there by whoever runs it.
    const key = await keyFor(
      aut.app.context.keys,
      { provider: 'openai-compatible', baseUrl: 'https://openrouter.ai/api/v1' },
      { provider: 'openai', baseUrl: null, providerModels: {} },
    );
    seen.length = 0;
    await new OpenAiProvider({ kind: 'openai-compatible', apiKey: key!, baseUrl: `${echoUrl}/v1` }).listModels().catch(() => null);
    expect(JSON.stringify(seen)).toContain(KEYS['provider:openrouter']);
  });
});
