import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { requestNames } from '@contract';
import { createDispatcher } from '../../src-main/core/bridge/dispatch';
import { EventBus } from '../../src-main/core/bridge/event-bus';
import type { HandlerTable } from '../../src-main/core/bridge/handler-table';
import { bindIpc } from '../../src-main/electron/ipc';
import { requestChannel } from '../../src-preload/ipc-channels';

// The Electron binary cannot run here, so this drives our IPC binding through the same interface
// ipcMain offers (handle/removeHandler) with sender objects shaped like Electron's. What is under
// test is our sender checks and validation, not Electron.

type Invoke = (event: IpcMainInvokeEvent, input: unknown) => Promise<unknown>;

function fakeIpcMain() {
  const handlers = new Map<string, Invoke>();
  const ipc = {
    handle: (channel: string, fn: Invoke) => void handlers.set(channel, fn),
    removeHandler: (channel: string) => void handlers.delete(channel),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  return { ipc, handlers };
}

function window(id: number, url = 'app://renderer/index.html') {
  const mainFrame = { url };
  return { id, mainFrame, isDestroyed: () => false, send: () => undefined } as unknown as WebContents;
}

const event = (sender: WebContents, frame: unknown) => ({ sender, senderFrame: frame }) as unknown as IpcMainInvokeEvent;

describe('IPC binding of the handler table', () => {
  let listed = 0;
  const table = new Proxy({} as HandlerTable, {
    get: (_t, name) => async () => {
      if (name === 'conversation.list') listed++;
      return name === 'conversation.list' ? [] : { ok: true };
    },
  });
  const { ipc, handlers } = fakeIpcMain();
  const ours = window(1);
  const unbind = bindIpc(ipc, createDispatcher(table), new EventBus(), () => ours);

  it('registers exactly one channel per contract request', () => {
    expect([...handlers.keys()].sort()).toEqual(requestNames.map(requestChannel).sort());
  });

  it("answers our window's top frame", async () => {
    const reply = await handlers.get(requestChannel('conversation.list'))?.(event(ours, ours.mainFrame), {});
    expect(reply).toEqual({ ok: true, result: [] });
    expect(listed).toBe(1);
  });

  it('refuses another window, a sub-frame and a foreign page, running nothing', async () => {
    const other = window(2);
    const h = handlers.get(requestChannel('conversation.list'));
    const r1 = (await h?.(event(other, other.mainFrame), {})) as { ok: boolean; error: { message: string } };
    expect(r1.error.message).toMatch(/did not come from the app window/);
    const r2 = (await h?.(event(ours, { url: 'app://renderer/index.html' }), {})) as { error: { message: string } };
    expect(r2.error.message).toMatch(/sub-frame/);
    const evil = window(1, 'https://evil.example/');
    const r3 = (await bindAndCall(evil)) as { error: { message: string } };
    expect(r3.error.message).toMatch(/unexpected page/);
    expect(listed).toBe(1);
  });

  it('refuses input that does not match the schema with a message naming the field', async () => {
    const reply = (await handlers.get(requestChannel('cell.approve'))?.(event(ours, ours.mainFrame), {
      conversationId: 'x',
      cellId: 5,
    })) as {
      ok: boolean;
      error: { code: string; message: string };
    };
    expect(reply.ok).toBe(false);
    expect(reply.error.code).toBe('invalid-input');
    expect(reply.error.message).toMatch(/cellId/);
  });

  it('removes every channel when unbound', () => {
    unbind();
    expect(handlers.size).toBe(0);
  });

  async function bindAndCall(win: WebContents) {
    const local = fakeIpcMain();
    bindIpc(local.ipc, createDispatcher(table), new EventBus(), () => win);
    return local.handlers.get(requestChannel('conversation.list'))?.(event(win, win.mainFrame), {});
  }
});
