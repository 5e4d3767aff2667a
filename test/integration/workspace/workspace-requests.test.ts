import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src-main/core/app';
import { createTestApp } from '../../support/test-app';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';

describe('workspace requests through the dispatcher', () => {
  let app: App;
  let dispatch: Dispatcher;
  let dataDir: string;
  let conversationId: string;
  let workspace: string;
  const ws = { transport: 'websocket' as const };
  const events: Array<{ name: string; payload: unknown }> = [];

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-wsreq-'));
    app = createTestApp({
      dataDir,
      settings: new MemorySettingsStore(),
      secrets: new MemorySecretStore(),
    });
    dispatch = createDispatcher(app.handlers);
    events.length = 0;
    app.events.subscribe((e) => events.push(e));
    const conv = await app.handlers['conversation.create']({}, ws);
    conversationId = conv.id;
    workspace = conv.workspace;
    writeFileSync(path.join(dataDir, 'outside.txt'), 'not yours');
  });
  afterEach(async () => {
    await app.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses paths that leave the workspace, naming the path', async () => {
    const rel = path.relative(workspace, path.join(dataDir, 'outside.txt'));
    const res = await dispatch('workspace.preview', { conversationId, path: rel }, ws);
    expect(res).toMatchObject({ ok: false, error: { code: 'handler-error', message: expect.stringMatching(/goes above the workspace/) } });
    expect(await dispatch('workspace.delete', { conversationId, path: '/etc/hostname' }, ws)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/absolute path/) },
    });
  });

  it('attaches uploaded bytes, lists them, and reports the change while watched', async () => {
    expect(await dispatch('workspace.tree', { conversationId }, ws)).toMatchObject({ ok: true, result: { entries: [], truncated: false } });
    const att = await dispatch(
      'workspace.attach',
      { conversationId, name: 'a.txt', mime: 'text/plain', dataBase64: Buffer.from('hello').toString('base64') },
      ws,
    );
    expect(att).toEqual({ ok: true, result: { path: 'attachments/a.txt', name: 'a.txt', mime: 'text/plain', size: 5 } });
    await expect
      .poll(() => events.some((e) => e.name === 'workspace.changed' && JSON.stringify(e.payload).includes('attachments/a.txt')))
      .toBe(true);
    const tree = await app.handlers['workspace.tree']({ conversationId }, ws);
    expect(tree.entries.map((e) => e.path)).toEqual(['attachments', 'attachments/a.txt']);
  });

  it('copies by path only for the desktop app', async () => {
    const res = await dispatch('workspace.attach-path', { conversationId, sourcePath: path.join(dataDir, 'outside.txt') }, ws);
    expect(res).toMatchObject({ ok: false, error: { message: expect.stringMatching(/only available in the desktop app/) } });
    const ipc = await dispatch(
      'workspace.attach-path',
      { conversationId, sourcePath: path.join(dataDir, 'outside.txt') },
      { transport: 'ipc' },
    );
    expect(ipc).toMatchObject({ ok: true, result: { path: 'attachments/outside.txt', size: 9 } });
  });
});
