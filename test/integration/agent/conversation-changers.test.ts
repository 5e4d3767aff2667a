import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnyEvent, Conversation } from '@contract';
import type { App } from '../../../src-main/core/app';
import { createDispatcher } from '../../../src-main/core/bridge/dispatch';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { applyEvent, viewOf } from '../../../src-renderer/state/conversation-reducer';
import { useCoreApps } from '../../support/core-apps';
import { SANDBOX_CHOSEN_OFF } from '../../support/sandbox-choice';
import { served } from '../../support/served-session';

// Changers outside a turn (an MCP client's runs, a folder change) tell the window as a turn does: the
// fold of their events in the renderer's reducer is the conversation main saved. Before they went
// through agent/conversation-changes.ts, the client's title and runs and the new folder sent nothing.
// (Sub-agents, hosted agents and live re-runs are checked in their own tests, where their turns run.)

const core = useCoreApps('oi-changers-');

function recording(app: App): { events: AnyEvent[]; fold: (from: Conversation) => Conversation } {
  const events: AnyEvent[] = [];
  app.events.subscribe((event) => void events.push(structuredClone(event)));
  return {
    events,
    fold: (from) => events.reduce((view, event) => applyEvent(view, event), viewOf(structuredClone(from))).conv,
  };
}

describe('changes made outside a turn reach the window', () => {
  it('an MCP client’s name and runs (oi mcp): title, cell and last activity', async () => {
    const settings = new MemorySettingsStore({ exec: { timeoutMs: 30_000 }, ...SANDBOX_CHOSEN_OFF });
    const { app, session: client } = served(core, settings);
    const { context } = app;
    const session = client();
    const before = structuredClone(session.conversation);
    const { events, fold } = recording(app);
    session.rename('inspector');
    const result = await session.execute('shell', 'echo served-$((6 * 7))');
    expect(result.status).toBe('done');

    const saved = await context.conversations.get(session.id);
    expect(saved.title).toBe('MCP: inspector');
    expect(JSON.stringify(saved.items)).toContain('served-42');
    expect(events.filter((e) => e.name === 'conversation.changed').map((e) => Object.keys(e.payload.change))).toEqual([
      ['title'],
      ['updatedAt'],
    ]);
    // mcpClient is main's own mark (`oi -c` passes such a conversation over); no window shows it.
    expect({ ...fold(before), mcpClient: saved.mcpClient }).toEqual(saved);
    await session.close();
  });

  it('a new folder (conversation.set-workspace): the folder and its notice', async () => {
    const app = core.app(new MemorySettingsStore({ ...SANDBOX_CHOSEN_OFF }));
    const dispatch = createDispatcher(app.handlers);
    const call = async (name: 'conversation.create' | 'conversation.set-workspace', input: object): Promise<Conversation> => {
      const reply = await dispatch(name, input, { transport: 'websocket' });
      if (!reply.ok) throw new Error(reply.error.message);
      return reply.result as Conversation;
    };
    const created = await call('conversation.create', {});
    // A copy: snapshot is the open conversation itself, which the request changes.
    const before = structuredClone(await app.context.agent.snapshot(created.id));
    const to = fs.realpathSync(core.tempDir());
    const { events, fold } = recording(app);
    const after = await call('conversation.set-workspace', { conversationId: created.id, path: to });

    expect(after.workspace).toBe(to);
    expect(events.map((e) => e.name)).toEqual(expect.arrayContaining(['conversation.changed', 'notice']));
    expect(fold(before)).toEqual(after);
  });
});
