import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyEvent, CellItem, Conversation } from '@contract';
import { applyEvent, viewOf } from '../../../src-renderer/state/conversation-reducer';
import { createTestApp } from '../../support/test-app';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { useCoreApps } from '../../support/core-apps';
import { agentText, hostedConversation, withScriptedAgent } from '../../support/hosted-agent';
import { SANDBOX_CHOSEN_OFF } from '../../support/sandbox-choice';

// Hosting an outside ACP agent (docs/acp.md#hosting): the scripted agent of test/fixtures/acp, a real
// process on a real pipe, drives a conversation of the real app; its file writes, terminal commands
// and permission requests go through our checkpoints, engine, sandbox and approval cards.

const core = useCoreApps('oi-hosted-');

const cells = (conv: Conversation): CellItem[] => conv.items.filter((i): i is CellItem => i.kind === 'cell');

describe('a conversation driven by an outside ACP agent', () => {
  it('records its thinking, words, plan and tool calls as ours, and its file write is checkpointed, rewound and exported', async () => {
    const app = core.app(new MemorySettingsStore(withScriptedAgent()));
    const host = await hostedConversation(app, path.join(core.tempDir(), 'ws'));
    host.answers.push('approve');
    const before = structuredClone(await app.context.agent.snapshot(host.id));
    const events: AnyEvent[] = [];
    app.events.subscribe((event) => void events.push(structuredClone(event)));
    const conv = await host.send(
      'think planning the note\nplan write the note|read it back\nsay hello from the agent\nwrite notes.txt first version\nread notes.txt',
    );
    // The window is told every change (agent/conversation-changes.ts): the turn's events, folded in the
    // renderer's reducer, are the conversation main saved, its plan and the agent's words included.
    const folded = events.reduce((view, event) => applyEvent(view, event), viewOf(before));
    // Not the agent's session id: main's own handle to resume it (session/load); the window shows the agent's name.
    expect({ ...folded.conv, hostedAgent: conv.hostedAgent }).toEqual(conv);

    expect(conv.hostedAgent?.name).toBe('scripted');
    expect(conv.hostedAgent?.sessionId).toMatch(/^s-/);
    const text = agentText(conv);
    expect(text).toContain('hello from the agent');
    expect(text).toContain('read: first version');
    expect(conv.items.some((i) => i.kind === 'assistant' && i.thinking.some((t) => t.thinking.includes('planning the note')))).toBe(true);
    expect(conv.tasks?.map((t) => t.title)).toEqual(['write the note', 'read it back']);
    // One card, for the agent's permission request; the write it covered ran without a second one.
    expect(host.asked).toHaveLength(1);
    const edit = cells(conv).find((c) => c.language === 'mcp:acp/edit');
    expect(edit).toMatchObject({ status: 'done', approval: 'user', mcp: { server: 'scripted', tool: 'edit' } });
    const write = cells(conv).find((c) => c.language === 'mcp:acp/write_text_file');
    expect(write?.status).toBe('done');
    expect(write?.changes?.files).toEqual([expect.objectContaining({ path: 'notes.txt', change: 'created' })]);
    expect(fs.readFileSync(path.join(host.workspace, 'notes.txt'), 'utf8')).toBe('first version');

    const exported = (await host.call('notebook.export', { conversationId: host.id })) as { text: string };
    expect(exported.text).toContain('hello from the agent');
    expect(exported.text).toContain('Write notes.txt');

    await host.call('checkpoints.restore', { conversationId: host.id, cellId: write?.id, confirm: true });
    expect(fs.existsSync(path.join(host.workspace, 'notes.txt'))).toBe(false);
  });

  it('answers its permission requests from the approval cards: reject skips the change, always runs the rest without asking; stopping the turn cancels the agent’s prompt', async () => {
    const app = core.app(new MemorySettingsStore(withScriptedAgent()));
    const host = await hostedConversation(app, path.join(core.tempDir(), 'ws'));
    host.answers.push('skip');
    let conv = await host.send('write a.txt refused');
    expect(agentText(conv)).toContain('write rejected');
    expect(fs.existsSync(path.join(host.workspace, 'a.txt'))).toBe(false);
    expect(cells(conv).find((c) => c.language === 'mcp:acp/edit')?.status).toBe('skipped');

    host.answers.splice(0, host.answers.length, 'always');
    host.asked.length = 0;
    conv = await host.send('write b.txt two\nwrite c.txt three');
    expect(host.asked).toHaveLength(1);
    expect(conv.autoRun).toBe(true);
    expect(fs.readFileSync(path.join(host.workspace, 'b.txt'), 'utf8')).toBe('two');
    expect(fs.readFileSync(path.join(host.workspace, 'c.txt'), 'utf8')).toBe('three');

    // Stop: the agent's prompt is cancelled, and the next message is answered in the same session.
    await host.call('chat.send', { conversationId: host.id, text: 'say waiting\nwait' });
    for (;;) {
      const now = (await host.call('conversation.get', { conversationId: host.id })) as Conversation;
      if (agentText(now).includes('waiting')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await host.call('chat.stop', { conversationId: host.id });
    await app.context.agent.idle(host.id);
    conv = await host.send('say still here');
    expect(agentText(conv)).toContain('still here');
    expect(conv.items.find((i) => i.kind === 'assistant' && i.text.includes('waiting'))).toMatchObject({ interrupted: true });
  });

  it('runs its terminal command in our sandbox: a write outside the workspace, by the command, by fs/* or by the agent itself, is refused', async () => {
    const app = core.app(new MemorySettingsStore(withScriptedAgent()));
    const outside = core.tempDir();
    const host = await hostedConversation(app, path.join(core.tempDir(), 'ws'));
    host.answers.push('approve');
    const conv = await host.send(
      [
        `run echo inside > made.txt; echo escaped > ${outside}/by-command.txt; echo done`,
        `write-unasked ${outside}/by-fs.txt escaped`,
        `self-write ${outside}/by-agent.txt escaped`,
      ].join('\n'),
    );
    const terminal = cells(conv).find((c) => c.language === 'shell');
    expect(terminal?.limits?.sandbox).toContain('writable: the workspace');
    expect(terminal?.changes?.files).toEqual([expect.objectContaining({ path: 'made.txt', change: 'created' })]);
    expect(agentText(conv)).toContain('write refused: ');
    expect(agentText(conv)).toContain('is outside this conversation');
    expect(agentText(conv)).toContain('self-write failed');
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('without the sandbox the same command, fs/* write aside, lands outside the workspace (the twin)', async () => {
    const app = core.app(new MemorySettingsStore(withScriptedAgent(SANDBOX_CHOSEN_OFF)));
    const outside = core.tempDir();
    const host = await hostedConversation(app, path.join(core.tempDir(), 'ws'));
    host.answers.push('approve');
    const conv = await host.send(
      [
        `run echo escaped > ${outside}/by-command.txt`,
        `write-unasked ${outside}/by-fs.txt escaped`,
        `self-write ${outside}/by-agent.txt escaped`,
      ].join('\n'),
    );
    expect(agentText(conv)).toContain('is outside this conversation');
    // fs/* goes through the workspace helpers with or without the sandbox; the rest is the sandbox's to stop.
    expect(fs.readdirSync(outside).sort()).toEqual(['by-agent.txt', 'by-command.txt']);
  });

  it('resumes the saved session with session/load after the app starts again, where the agent can load sessions', async () => {
    const data = core.tempDir();
    const settings = new MemorySettingsStore(withScriptedAgent({}, { SCRIPTED_AGENT_LOAD: '1' }));
    const start = () => createTestApp({ dataDir: data, settings, secrets: new MemorySecretStore() });
    const first = start();
    const host = await hostedConversation(first, path.join(core.tempDir(), 'ws'));
    const before = await host.send('session');
    const sessionId = before.hostedAgent?.sessionId;
    expect(agentText(before)).toContain(`session ${sessionId} new`);
    await first.dispose();

    const again = start();
    try {
      const resumed = await hostedConversation(again, host.workspace, host.id);
      const after = await resumed.send('session');
      expect(agentText(after)).toContain(`session ${sessionId} loaded`);
    } finally {
      await again.dispose();
    }
  });
});
