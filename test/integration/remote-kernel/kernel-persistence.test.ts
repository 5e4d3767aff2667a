import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Conversation, defaultSettings } from '@contract';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';
import { startJupyterServer, type JupyterServer } from '../../support/jupyter-server';

// A conversation's remote kernel outlives the app: the binding is kept in the conversation's file,
// the kernel is left running on the server when the app quits, and a new app on the same data
// folder reattaches to it on the first run, variables included.

const ctx = { transport: 'websocket' } as const;

describe('remote kernel binding across an app restart', () => {
  let server: JupyterServer;
  let dataDir: string;
  let secrets: MemorySecretStore;
  const started: AppUnderTest[] = [];

  // Same data folder and keychain each time: a restart of the same installation.
  const startApp = async (): Promise<AppUnderTest> => {
    const aut = await startAppUnderTest({}, { secrets, dataDir });
    started.push(aut);
    return aut;
  };
  const run = (aut: AppUnderTest, conv: { id: string; workspace: string }, code: string) =>
    aut.app.context.exec.run({
      conversationId: conv.id,
      workspace: conv.workspace,
      language: 'python',
      code,
      settings: defaultSettings.exec,
    });
  const fileOf = async (id: string): Promise<Conversation> =>
    Conversation.parse(JSON.parse(await readFile(path.join(dataDir, 'conversations', `${id}.json`), 'utf8')));
  const serverKernels = async (): Promise<string[]> => {
    const res = await fetch(`${server.url}/api/kernels`, { headers: { Authorization: `token ${server.token}` } });
    const kernels = (await res.json()) as Array<{ id: string }>;
    return kernels.map((k) => k.id);
  };

  /** A fresh installation (data folder, keychain), its app, and a conversation connected to the server's kernel. */
  const firstAppConnected = async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'oi-kernel-persist-'));
    secrets = new MemorySecretStore();
    await secrets.set('provider:openai', 'sk-test-persist');
    const first = await startApp();
    const conv = await first.app.handlers['conversation.create']({}, ctx);
    await first.app.handlers['kernels.connect']({ conversationId: conv.id, url: server.url, token: server.token }, ctx);
    return { first, conv };
  };

  beforeAll(async () => {
    server = await startJupyterServer();
  });
  afterEach(async () => {
    for (const aut of started.splice(0)) await aut.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('reattaches to the same kernel after a restart, keeping its variables', async () => {
    const { first, conv } = await firstAppConnected();
    const set = await run(first, conv, 'answer = 6 * 7');
    expect(set.status).toBe('done');
    const before = await first.app.handlers['kernels.status']({ conversationId: conv.id }, ctx);
    const kernelId = before?.kernelId;
    expect(kernelId).toMatch(/^[0-9a-f-]{36}$/);
    await first.close();

    // Saved without the token, and the kernel is still on the server.
    const saved = await fileOf(conv.id);
    expect(saved.remoteKernel).toEqual({
      url: server.url,
      kernelName: 'python3',
      displayName: 'Python 3 (ipykernel)',
      language: 'python',
      kernelId,
    });
    expect(JSON.stringify(saved)).not.toContain(server.token);
    expect(await serverKernels()).toContain(kernelId);

    const second = await startApp();
    expect(await second.app.handlers['kernels.status']({ conversationId: conv.id }, ctx)).toMatchObject({
      url: server.url,
      kernelName: 'python3',
      kernelId,
    });
    const read = await run(second, conv, 'print(answer)');
    expect(read.status).toBe('done');
    expect(read.forModel).toContain('42');
    expect(read.forModel).toContain('its state is kept');
    expect(read.limits.location).toBe(`remote Jupyter kernel "Python 3 (ipykernel)" at ${server.url}`);
    expect(await second.app.handlers['kernels.status']({ conversationId: conv.id }, ctx)).toMatchObject({ kernelId });
  });

  it('stays local after a restart once disconnected', async () => {
    const { first, conv } = await firstAppConnected();
    expect((await run(first, conv, 'x = 1')).limits.location).toContain(server.url);
    expect(await first.app.handlers['kernels.disconnect']({ conversationId: conv.id }, ctx)).toEqual({ disconnected: true });
    await first.close();
    expect((await fileOf(conv.id)).remoteKernel).toBeNull();

    const second = await startApp();
    expect(await second.app.handlers['kernels.status']({ conversationId: conv.id }, ctx)).toBeNull();
    const local = await run(second, conv, 'print("here")');
    expect(local.status).toBe('done');
    expect(local.limits.location).toBeUndefined();
  });
});
