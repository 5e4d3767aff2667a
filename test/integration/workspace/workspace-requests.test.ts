import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type {} from '../../../src-main/core/app';
import { useRequestApp } from '../../support/request-app';

describe('workspace requests through the dispatcher', () => {
  const t = useRequestApp('oi-wsreq-');
  let conversationId: string;
  let workspace: string;
  const ws = { transport: 'websocket' as const };
  const events: Array<{ name: string; payload: unknown }> = [];

  beforeEach(async () => {
    events.length = 0;
    t.app.events.subscribe((e) => events.push(e));
    const conv = await t.app.handlers['conversation.create']({}, ws);
    conversationId = conv.id;
    workspace = conv.workspace;
    writeFileSync(path.join(t.dataDir, 'outside.txt'), 'not yours');
  });

  it('refuses paths that leave the workspace, naming the path', async () => {
    const rel = path.relative(workspace, path.join(t.dataDir, 'outside.txt'));
    const res = await t.dispatch('workspace.preview', { conversationId, path: rel }, ws);
    expect(res).toMatchObject({ ok: false, error: { code: 'handler-error', message: expect.stringMatching(/goes above the workspace/) } });
    expect(await t.dispatch('workspace.delete', { conversationId, path: '/etc/hostname' }, ws)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/absolute path/) },
    });
  });

  it('attaches uploaded bytes, lists them, and reports the change while watched', async () => {
    expect(await t.dispatch('workspace.tree', { conversationId }, ws)).toMatchObject({
      ok: true,
      result: { entries: [], truncated: false },
    });
    const att = await t.dispatch(
      'workspace.attach',
      { conversationId, name: 'a.txt', mime: 'text/plain', dataBase64: Buffer.from('hello').toString('base64') },
      ws,
    );
    expect(att).toEqual({ ok: true, result: { path: 'attachments/a.txt', name: 'a.txt', mime: 'text/plain', size: 5 } });
    await expect
      .poll(() => events.some((e) => e.name === 'workspace.changed' && JSON.stringify(e.payload).includes('attachments/a.txt')))
      .toBe(true);
    const tree = await t.app.handlers['workspace.tree']({ conversationId }, ws);
    expect(tree.entries.map((e) => e.path)).toEqual(['attachments', 'attachments/a.txt']);
  });

  it('copies by path only for the desktop app', async () => {
    const res = await t.dispatch('workspace.attach-path', { conversationId, sourcePath: path.join(t.dataDir, 'outside.txt') }, ws);
    expect(res).toMatchObject({ ok: false, error: { message: expect.stringMatching(/only available in the desktop app/) } });
    const ipc = await t.dispatch(
      'workspace.attach-path',
      { conversationId, sourcePath: path.join(t.dataDir, 'outside.txt') },
      { transport: 'ipc' },
    );
    expect(ipc).toMatchObject({ ok: true, result: { path: 'attachments/outside.txt', size: 9 } });
  });
});
