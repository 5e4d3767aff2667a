import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src-main/core/app';
import { createTestApp } from '../../support/test-app';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { closedPort } from '../../support/closed-port';

describe('keys and provider requests', () => {
  let llm: ScriptedLlm;
  let app: App;
  let dispatch: Dispatcher;
  let dataDir: string;
  let secrets: MemorySecretStore;
  const ws = { transport: 'websocket' as const };

  beforeEach(async () => {
    llm = await startScriptedLlm({ models: ['m-small', 'm-large'] });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-keys-'));
    secrets = new MemorySecretStore();
    app = createTestApp({
      dataDir,
      settings: new MemorySettingsStore({ provider: 'openai', baseUrl: llm.openaiBaseUrl }),
      secrets,
      env: { ANTHROPIC_API_KEY: 'sk-ant-from-the-environment-1234' },
      localServers: [{ id: 'ollama', name: 'Ollama', provider: 'ollama', port: Number(new URL(llm.url).port), listPath: '/api/tags' }],
    });
    dispatch = createDispatcher(app.handlers);
  });
  afterEach(async () => {
    await app.dispose();
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('describes keys by source and last four, and never answers with a key', async () => {
    const key = 'sk-proj-this-is-a-secret-value-WXYZ';
    const set = await dispatch('keys.set', { provider: 'openai', key: `  ${key}\n` }, ws);
    expect(set).toEqual({ ok: true, result: { provider: 'openai', source: 'memory', last4: 'WXYZ', envVariable: null } });
    expect(await secrets.get('provider:openai')).toBe(key);
    const list = await dispatch('keys.list', {}, ws);
    expect(JSON.stringify(list)).not.toContain(key.slice(0, -4));
    expect(list).toMatchObject({
      ok: true,
      result: {
        storage: 'memory',
        keys: [
          { provider: 'openai', source: 'memory' },
          { provider: 'anthropic', source: 'env', envVariable: 'ANTHROPIC_API_KEY', last4: '1234' },
          { provider: 'openai-compatible', source: null },
          // The hosted OpenAI-compatible services, each with a key of its own.
          ...['openrouter', 'groq', 'mistral', 'deepseek'].map((provider) => ({ provider, source: null })),
        ],
      },
    });
    expect(await dispatch('keys.delete', { provider: 'openai' }, ws)).toMatchObject({ ok: true, result: { source: null } });
    expect(await dispatch('keys.set', { provider: 'openai', key: '   ' }, ws)).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
  });

  it('tests a typed key by listing models, and reports a refusal without echoing the key', async () => {
    expect(await dispatch('keys.test', { provider: 'openai', key: 'sk-typed-key-000000001' }, ws)).toEqual({
      ok: true,
      result: { ok: true, models: ['m-large', 'm-small'] },
    });
    expect(llm.requests.at(-1)?.headers.authorization).toBe('Bearer sk-typed-key-000000001');
    const port = await closedPort();
    const unreachable = await dispatch(
      'keys.test',
      { provider: 'openai', key: 'sk-typed-key-000000001', baseUrl: `http://127.0.0.1:${port}/v1` },
      ws,
    );
    // The network failed, so the key was not checked: the answer says so, and names the URL.
    expect(unreachable).toMatchObject({
      ok: true,
      result: {
        ok: false,
        problem: 'network',
        message: expect.stringMatching(
          new RegExp(`could not reach http://127\\.0\\.0\\.1:${port}/v1/models: nothing is listening .*not the API key`),
        ),
      },
    });
    const nowhere = await dispatch(
      'keys.test',
      { provider: 'openai', key: 'sk-typed-key-000000001', baseUrl: 'http://no-such-host.invalid/v1' },
      ws,
    );
    expect(nowhere).toMatchObject({
      ok: true,
      result: {
        ok: false,
        problem: 'network',
        message: expect.stringMatching(/no-such-host\.invalid could not be found .*not the API key/),
      },
    });
    // A server that answers and refuses the key: the key is at fault, and the answer never quotes it.
    const refusing = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided: sk-typed-key-000000001' } }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v1`;
      const refused = await dispatch('keys.test', { provider: 'openai', key: 'sk-typed-key-000000001', baseUrl: url }, ws);
      expect(refused).toMatchObject({
        ok: true,
        result: { ok: false, problem: 'key', message: expect.stringMatching(/refused the key \(401 .*\[redacted\]/) },
      });
      expect(JSON.stringify(refused)).not.toContain('sk-typed-key-000000001');
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
    expect(await dispatch('keys.test', { provider: 'openai' }, ws)).toMatchObject({
      ok: true,
      result: { ok: false, message: expect.stringMatching(/no key/) },
    });
  });

  it('says whether the chosen provider is usable, and finds local servers and environment keys', async () => {
    expect(await dispatch('providers.status', {}, ws)).toEqual({ ok: true, result: { ready: false, reason: 'no OpenAI API key' } });
    await secrets.set('provider:openai', 'sk-now-there-is-one-9999');
    expect(await dispatch('providers.status', {}, ws)).toEqual({ ok: true, result: { ready: true, reason: null } });
    const detected = await dispatch('providers.detect', {}, ws);
    expect(detected).toMatchObject({
      ok: true,
      result: {
        env: [{ provider: 'anthropic', variable: 'ANTHROPIC_API_KEY' }],
        local: [{ id: 'ollama', name: 'Ollama', provider: 'ollama', baseUrl: `${llm.url}/v1`, models: ['m-large', 'm-small'] }],
      },
    });
    // Detection asked the local server only for its model list.
    expect(llm.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/tags']);
  });
});
