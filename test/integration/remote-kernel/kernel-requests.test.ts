import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import type { App } from '../../../src-main/core/app';
import { createTestApp } from '../../support/test-app';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { SANDBOX_CHOSEN_OFF } from '../../support/sandbox-choice';
import { startJupyterServer, type JupyterServer } from '../../support/jupyter-server';

// The kernels.* requests through the real app as both transports dispatch them: the token goes to
// the keychain (here the in-memory store), never back out, and the conversation's Python runs on
// the server from then on.

describe('kernel requests', () => {
  let server: JupyterServer;
  let dataDir: string;
  let workspace: string;
  let secrets: MemorySecretStore;
  let app: App;
  let dispatch: Dispatcher;

  beforeAll(async () => {
    server = await startJupyterServer();
    dataDir = await mkdtemp(join(tmpdir(), 'oi-kernel-requests-'));
    workspace = await mkdtemp(join(tmpdir(), 'oi-kernel-ws-'));
    secrets = new MemorySecretStore();
    app = createTestApp({
      dataDir,
      // A remote binding's way back is said as "run locally"; with the sandbox it would be "in the sandbox".
      settings: new MemorySettingsStore(SANDBOX_CHOSEN_OFF),
      secrets,
    });
    dispatch = createDispatcher(app.handlers);
  });

  afterAll(async () => {
    await app?.dispose();
    await server?.dispose();
    await rm(dataDir, { recursive: true, force: true });
    await rm(workspace, { recursive: true, force: true });
  });

  it('refuses a wrong token or an unknown kernel before saving anything', async () => {
    const wrong = await dispatch(
      'kernels.connect',
      { conversationId: 'conv-w', url: server.url, token: 'wrong-token' },
      { transport: 'websocket' },
    );
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error.message).toContain('refused the token (HTTP 403)');
    expect(await secrets.get(`kernel:${server.url}`)).toBeNull();

    const missing = await dispatch(
      'kernels.connect',
      { conversationId: 'conv-w', url: server.url, token: server.token, kernelName: 'julia-1.10' },
      { transport: 'websocket' },
    );
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.message).toContain('has no kernel "julia-1.10"; it offers: python3');
    expect(await secrets.get(`kernel:${server.url}`)).toBeNull();
  });

  it('connects a conversation to a kernel, keeps the token in the keychain, and runs there', async () => {
    const specs = await dispatch('kernels.specs', { url: server.url, token: server.token }, { transport: 'websocket' });
    expect(specs).toMatchObject({ ok: true, result: { default: 'python3' } });

    const reply = await dispatch(
      'kernels.connect',
      { conversationId: 'conv-k', url: `${server.url}/?token=${server.token}`, token: server.token },
      { transport: 'websocket' },
    );
    expect(reply).toEqual({
      ok: true,
      result: { url: server.url, kernelName: 'python3', displayName: 'Python 3 (ipykernel)', language: 'python', kernelId: null },
    });
    expect(JSON.stringify(reply)).not.toContain(server.token);
    expect(await secrets.get(`kernel:${server.url}`)).toBe(server.token);

    const result = await app.context.exec.run({
      conversationId: 'conv-k',
      workspace,
      language: 'python',
      code: 'import os\nprint(os.getcwd())',
      settings: defaultSettings.exec,
    });
    expect(result.status).toBe('done');
    expect(result.limits.location).toBe(`remote Jupyter kernel "Python 3 (ipykernel)" at ${server.url}`);
    const status = await dispatch('kernels.status', { conversationId: 'conv-k' }, { transport: 'websocket' });
    expect(status).toMatchObject({ ok: true, result: { kernelId: expect.stringMatching(/^[0-9a-f-]{36}$/) } });

    // Connecting again without a token uses the saved one.
    const again = await dispatch('kernels.connect', { conversationId: 'conv-k2', url: server.url }, { transport: 'websocket' });
    expect(again.ok).toBe(true);

    expect(await dispatch('kernels.disconnect', { conversationId: 'conv-k' }, { transport: 'websocket' })).toEqual({
      ok: true,
      result: { disconnected: true },
    });
    expect(await dispatch('kernels.status', { conversationId: 'conv-k' }, { transport: 'websocket' })).toEqual({ ok: true, result: null });
    const local = await app.context.exec.run({
      conversationId: 'conv-k',
      workspace,
      language: 'python',
      code: 'print(1)',
      settings: defaultSettings.exec,
    });
    expect(local.limits.location).toBeUndefined();
    expect(local.forModel).toContain('restarted to run locally');
  });
});
