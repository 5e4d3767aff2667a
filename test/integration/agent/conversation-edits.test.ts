import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConversationFile } from '../../../src-main/core/conversations/lmc-import';
import { toLmcMessages } from '../../../src-main/core/conversations/lmc-export';
import { useAgentHarness } from '../../support/use-agent-harness';

const startHarness = useAgentHarness();

type Message = { role: string; content: unknown };
const usersIn = (body: Record<string, unknown> | undefined) =>
  ((body?.messages ?? []) as Message[]).filter((m) => m.role === 'user').map((m) => m.content);

describe('editing a conversation', () => {
  it('undoes the last turn, so the model no longer sees it', async () => {
    const h = await startHarness({ settings: { autoRun: true } });
    h.llm.enqueue(
      { kind: 'text', text: 'one' },
      { kind: 'tool', calls: [{ id: 'c', name: 'execute', arguments: { language: 'shell', code: 'echo x' } }] },
      { kind: 'text', text: 'two' },
      { kind: 'text', text: 'three' },
    );
    const id = await h.newConversation();
    await h.send(id, 'first');
    await h.send(id, 'second');
    const undone = await h.agent.undoLastTurn(id);
    expect(undone.items.map((i) => i.kind)).toEqual(['user', 'assistant']);
    expect((await h.store.get(id)).items).toHaveLength(2);
    await h.send(id, 'third');
    expect(usersIn(h.bodies().at(-1))).toEqual(['first', 'third']);
  });

  it('edits the last message and answers it again', async () => {
    const h = await startHarness();
    h.llm.enqueue({ kind: 'text', text: 'about cats' }, { kind: 'text', text: 'about dogs' });
    const id = await h.newConversation();
    await h.send(id, 'tell me about cats');
    await h.agent.editAndResend(id, 'tell me about dogs');
    await h.agent.idle(id);
    const conv = await h.agent.snapshot(id);
    expect(conv.items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind))).toEqual([
      'tell me about dogs',
      'about dogs',
    ]);
    expect(conv.title).toBe('tell me about dogs');
    expect(usersIn(h.bodies().at(-1))).toEqual(['tell me about dogs']);
  });

  it('regenerates the answer to the last message', async () => {
    const h = await startHarness();
    h.llm.enqueue({ kind: 'text', text: 'draft' }, { kind: 'text', text: 'better' });
    const id = await h.newConversation();
    await h.send(id, 'write a haiku');
    await h.agent.regenerate(id);
    await h.agent.idle(id);
    const conv = await h.agent.snapshot(id);
    expect(conv.items.map((i) => i.kind === 'assistant' && i.text).filter(Boolean)).toEqual(['better']);
    expect(h.bodies()).toHaveLength(2);
    expect(usersIn(h.bodies()[1])).toEqual(['write a haiku']);
  });

  it('refuses to change history while a turn runs, and says what to do', async () => {
    const h = await startHarness();
    h.llm.enqueue({ kind: 'tool', calls: [{ id: 'c', name: 'execute', arguments: { language: 'shell', code: 'echo hi' } }] });
    const id = await h.newConversation();
    await h.agent.send(id, 'go', []);
    await h.waitFor('cell.awaiting-approval');
    await expect(h.agent.undoLastTurn(id)).rejects.toThrow(/stop the turn first/);
    await expect(h.agent.regenerate(id)).rejects.toThrow(/stop the turn first/);
    h.agent.stop(id);
    await h.agent.idle(id);
  });

  it('renames and deletes conversations', async () => {
    const h = await startHarness();
    const id = await h.newConversation();
    const made = await h.store.get(id);
    expect((await h.agent.rename(id, '  Quarterly   report ')).title).toBe('Quarterly report');
    // A rename changes the name alone: not the time, so not the conversation's place in the list.
    expect((await h.store.get(id)).updatedAt).toBe(made.updatedAt);
    // Listed once it has a message.
    expect(await h.store.list()).toEqual([]);
    await h.store.save({
      ...(await h.store.get(id)),
      items: [{ kind: 'user', id: 'u1', text: 'the numbers for Q3', attachments: [], createdAt: made.createdAt }],
    });
    expect(await h.store.list('quarterly')).toEqual([
      expect.objectContaining({ id, match: { text: 'Quarterly report', start: 0, length: 9 } }),
    ]);
    expect((await h.store.list('numbers')).map((c) => c.match)).toEqual([{ text: 'the numbers for Q3', start: 4, length: 7 }]);
    await h.agent.delete(id);
    expect(await h.store.list()).toEqual([]);
    await expect(h.store.get(id)).rejects.toThrow(/no conversation with id/);
  });
});

describe('importing Open Interpreter conversations', () => {
  const LMC = [
    { role: 'user', type: 'message', content: 'How many files are here?' },
    { role: 'assistant', type: 'message', content: 'Let me count them.' },
    { role: 'assistant', type: 'code', format: 'python', content: 'import os\nprint(len(os.listdir()))' },
    { role: 'computer', type: 'console', format: 'active_line', content: '1' },
    { role: 'computer', type: 'console', format: 'output', content: '7\n' },
    { role: 'assistant', type: 'message', content: 'There are 7 files.' },
    { role: 'user', type: 'message', content: 'Thanks!' },
    { role: 'assistant', type: 'message', content: 'Any time.' },
  ];

  it('imports LMC messages as items the model can continue from', async () => {
    const h = await startHarness();
    const imported = parseConversationFile(JSON.stringify(LMC));
    expect(imported.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'cell', 'assistant', 'user', 'assistant']);
    expect(imported.items[2]).toMatchObject({
      kind: 'cell',
      language: 'python',
      code: 'import os\nprint(len(os.listdir()))',
      status: 'done',
      resultForModel: '7\n',
      outputs: [{ output_type: 'stream', name: 'stdout', text: '7\n' }],
    });

    const conv = await h.store.create('imported', imported.items);
    h.llm.enqueue({ kind: 'text', text: 'continuing' });
    await h.send(conv.id, 'and now?');
    const body = h.bodies()[0] as {
      messages: Array<{ role: string; content: unknown; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
    };
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user']);
    expect(body.messages[3]).toMatchObject({ content: '7\n', tool_call_id: body.messages[2]?.tool_calls?.[0]?.id });
  });

  it('imports the 0.1 format and round-trips its own LMC export', async () => {
    const legacy = [
      { role: 'user', message: 'list files' },
      { role: 'assistant', message: 'Sure.', language: 'shell', code: 'ls', output: 'a.txt\n' },
    ];
    const first = parseConversationFile(JSON.stringify(legacy));
    expect(first.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'cell']);
    const conv = {
      version: 1 as const,
      id: 'x',
      title: 't',
      createdAt: '',
      updatedAt: '',
      workspace: '/tmp',
      items: first.items,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      autoRun: false,
    };
    const again = parseConversationFile(JSON.stringify(toLmcMessages(conv)));
    expect(
      again.items.map((i) => (i.kind === 'cell' ? [i.language, i.code, i.resultForModel] : i.kind === 'notice' ? '' : i.text)),
    ).toEqual(['list files', 'Sure.', ['shell', 'ls', 'a.txt\n']]);
  });

  it("marks cells with outputs from one of this app's conversation files as imported (their HTML scripts wait for a re-run)", () => {
    const conv = {
      version: 1 as const,
      id: 'x',
      title: 'shared',
      createdAt: '',
      updatedAt: '',
      workspace: '/tmp',
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      autoRun: false,
      items: [
        { kind: 'user', id: 'u1', text: 'chart', attachments: [], createdAt: '' },
        ...[[{ output_type: 'display_data', data: { 'text/html': '<script>1</script>' }, metadata: {} }], []].map((outputs, i) => ({
          kind: 'cell',
          id: `c${i}`,
          step: 's1',
          toolCallId: null,
          language: 'python',
          code: 'chart()',
          status: 'done',
          approval: 'user',
          outputs,
          exitCode: 0,
          durationMs: 1,
          executionCount: i + 1,
          startedAt: null,
          limits: null,
          resultForModel: '',
        })),
      ],
    };
    const imported = parseConversationFile(JSON.stringify(conv));
    expect(imported.items.map((i) => (i.kind === 'cell' ? i.imported : i.kind))).toEqual(['user', true, undefined]);
  });

  it('says which message is wrong in a damaged file', () => {
    expect(() => parseConversationFile('{"not": "a list"}')).toThrow(/expected a JSON array of Open Interpreter messages/);
    expect(() => parseConversationFile('[{"role": "user", "content": "hi"}, {"role": "robot", "content": 1}]')).toThrow(/message 2: /);
    expect(() => parseConversationFile('[oops')).toThrow(/not JSON/);
  });

  it('reads an LMC file with active lines, null content and images', () => {
    const text = readFileSync(path.join(import.meta.dirname, 'support', 'oi-conversation.json'), 'utf8');
    const imported = parseConversationFile(text);
    expect(imported.items.filter((i) => i.kind === 'cell')).toHaveLength(2);
    expect(imported.items.filter((i) => i.kind === 'cell').every((c) => c.kind === 'cell' && c.resultForModel !== null)).toBe(true);
  });
});
