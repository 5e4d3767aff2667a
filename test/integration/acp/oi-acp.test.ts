import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '@contract';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, tempDir } from '../../support/cli-process';
import { messageText, startOiAcp, updatesOf, type OiAcp } from '../../support/oi-acp';
import { processesWhere } from '../../support/proc-scan';

// `oi acp` driven by the ACP SDK's client side over a real pipe, against the scripted model server,
// on both model protocols: the session is a saved conversation, cells are execute tool calls, and
// the permission answers decide whether the code's side effect happens.
// Each protocol's tests share its `oi acp` processes (one per set of flags, `--auto-run` and none,
// each start about 1.3 CPU-seconds) and its model server; each test has a session and a workspace of its own, asks only about
// its own session, and a failed test takes the shared processes down with it, so the next test starts
// afresh rather than inheriting a turn left half-done.

const PROTOCOLS = [
  { provider: 'openai', model: 'gpt-4o', base: (l: ScriptedLlm) => l.openaiBaseUrl, chat: '/v1/chat/completions' },
  { provider: 'anthropic', model: 'claude-sonnet-4-6', base: (l: ScriptedLlm) => l.anthropicBaseUrl, chat: '/v1/messages' },
] as const;

/** The model's reply: one shell cell that makes `file` (its side effect shows whether it ran). */
const touch = (id: string, file: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'execute', arguments: { language: 'shell', code: `touch ${file}` } }],
});

/** Long enough for a cold start of oi on a loaded two-core machine; a prompt's own wait is the test's. */
const TEST_TIMEOUT = 180_000;

describe.each(PROTOCOLS)('oi acp over the $provider protocol', ({ provider, model, base, chat }) => {
  let llm: ScriptedLlm | null = null;
  let data: ReturnType<typeof tempDir> | null = null;
  /** The describe's `oi acp` processes, by their flags (started before its tests, so they outlive each one). */
  const running = new Map<string, OiAcp>();
  let tests = 0;
  async function launch(extra: string[]): Promise<OiAcp> {
    llm ??= await startScriptedLlm();
    data ??= tempDir('oi-acp-');
    const acp = startOiAcp(
      ['--provider', provider, '--model', model, '--base-url', base(llm), ...extra],
      cliEnv(data.dir),
      path.join(data.dir, 'editor'),
    );
    const init = await acp.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
    return acp;
  }
  beforeAll(async () => {
    for (const extra of [['--auto-run'], []]) running.set(extra.join(' '), await launch(extra));
  });
  const reset = async () => {
    for (const acp of running.values()) await acp.stop();
    running.clear();
    await llm?.close();
    data?.remove();
    llm = null;
    data = null;
  };
  // After a failed test (or one that left replies queued), the rest start afresh: each its own process.
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' || (llm?.pending() ?? 0) > 0) await reset();
  });
  afterAll(reset);

  /** The describe's `oi acp` with these flags, and a workspace of this test's own. */
  async function start(extra: string[] = []): Promise<{ acp: OiAcp; ws: string }> {
    const acp = running.get(extra.join(' ')) ?? (await launch(extra));
    const ws = path.join(data!.dir, `project-${++tests}`);
    mkdirSync(ws, { recursive: true });
    // What an earlier test was asked, and how it answered, are not this test's.
    acp.asked.splice(0);
    acp.answers.splice(0);
    return { acp, ws };
  }
  const newSession = async (acp: OiAcp, cwd: string) =>
    (await acp.connection.agent.request('session/new', { cwd, mcpServers: [] })).sessionId;
  const prompt = (acp: OiAcp, sessionId: string, text: string) =>
    acp.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  const chatBodies = () => (llm?.requests ?? []).filter((r) => r.path === chat).map((r) => JSON.stringify(r.body));
  const savedConversation = (id: string) =>
    JSON.parse(readFileSync(path.join(data!.dir, 'conversations', `${id}.json`), 'utf8')) as Conversation;

  it(
    'initializes, opens a session in the editor’s folder, streams thinking, text and a cell as an execute tool call with its output, and ends the turn',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { acp, ws } = await start(['--auto-run']);
      const init = await acp.connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { image: false, embeddedContext: true } });
      const sessionId = await newSession(acp, ws);
      llm!.enqueue(
        {
          kind: 'tool',
          text: 'Counting.',
          thinking: 'A shell one-liner will do.',
          calls: [{ id: 'call_acp', name: 'execute', arguments: { language: 'shell', code: 'echo acp-$((40 + 2)) | tee made.txt' } }],
        },
        { kind: 'text', text: 'It printed acp-42.' },
      );
      const answer = await prompt(acp, sessionId, 'count to 42');
      expect(answer.stopReason).toBe('end_turn');
      expect(messageText(acp, sessionId)).toBe('Counting.It printed acp-42.');
      // Thinking is an Anthropic reply's; the OpenAI protocol has none to stream.
      const thought = updatesOf(acp, 'agent_thought_chunk', sessionId).map((u) => (u.content.type === 'text' ? u.content.text : ''));
      expect(thought.join('')).toBe(provider === 'anthropic' ? 'A shell one-liner will do.' : '');
      const calls = updatesOf(acp, 'tool_call', sessionId);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ kind: 'execute' });
      const done = updatesOf(acp, 'tool_call_update', sessionId).filter((u) => u.toolCallId === calls[0]!.toolCallId);
      expect(done.map((u) => u.status).filter(Boolean)).toEqual(['in_progress', 'completed']);
      const last = JSON.stringify(done.at(-1)?.content);
      expect(last).toContain('echo acp-$((40 + 2))');
      expect(last).toContain('acp-42');
      // The code ran in the session's folder, and the session is a conversation saved where the app finds it.
      expect(readFileSync(path.join(ws, 'made.txt'), 'utf8')).toBe('acp-42\n');
      // The file the run made, from its checkpoints: named in the content and given as a location to follow.
      expect(last).toContain('created made.txt');
      expect(done.at(-1)?.locations?.map((l) => realpathSync(l.path))).toEqual([realpathSync(path.join(ws, 'made.txt'))]);
      const saved = savedConversation(sessionId);
      expect(realpathSync(saved.workspace)).toBe(realpathSync(ws));
      expect(saved.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'cell', 'assistant']);
      expect(chatBodies().at(-1)).toContain('acp-42');
    },
  );

  it(
    'asks before each cell: allow once runs it, reject skips it and the model is told, always runs it and every later cell without asking',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { acp, ws } = await start();
      const sessionId = await newSession(acp, ws);
      llm!.enqueue(touch('c1', 'once.txt'), { kind: 'text', text: 'Made it.' });
      acp.answers.splice(0, Infinity, 'allow_once');
      expect((await prompt(acp, sessionId, 'make once.txt')).stopReason).toBe('end_turn');
      expect(acp.asked).toHaveLength(1);
      expect(acp.asked[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
      expect(JSON.stringify(acp.asked[0]!.toolCall.content)).toContain('touch once.txt');
      expect(existsSync(path.join(ws, 'once.txt'))).toBe(true);

      llm!.enqueue(touch('c2', 'rejected.txt'), { kind: 'text', text: 'Understood.' });
      acp.answers.splice(0, Infinity, 'reject_once');
      expect((await prompt(acp, sessionId, 'make rejected.txt')).stopReason).toBe('end_turn');
      expect(acp.asked).toHaveLength(2);
      expect(existsSync(path.join(ws, 'rejected.txt'))).toBe(false);
      expect(chatBodies().at(-1)).toContain('The user declined to run this code.');
      const skipped = updatesOf(acp, 'tool_call_update', sessionId).filter((u) => u.toolCallId === acp.asked[1]!.toolCall.toolCallId);
      expect(skipped.at(-1)).toMatchObject({ status: 'failed' });

      llm!.enqueue(touch('c3', 'always1.txt'), touch('c4', 'always2.txt'), { kind: 'text', text: 'Both made.' });
      acp.answers.splice(0, Infinity, 'allow_always');
      expect((await prompt(acp, sessionId, 'make two files')).stopReason).toBe('end_turn');
      // Asked once for the first cell; the second ran without asking.
      expect(acp.asked).toHaveLength(3);
      expect(existsSync(path.join(ws, 'always1.txt'))).toBe(true);
      expect(existsSync(path.join(ws, 'always2.txt'))).toBe(true);
      expect(updatesOf(acp, 'current_mode_update', sessionId).at(-1)).toMatchObject({ currentModeId: 'auto-run' });
      expect(savedConversation(sessionId).autoRun).toBe(true);

      llm!.enqueue(touch('c5', 'always3.txt'), { kind: 'text', text: 'Made.' });
      acp.answers.splice(0, Infinity, 'reject_once');
      expect((await prompt(acp, sessionId, 'and a third')).stopReason).toBe('end_turn');
      expect(acp.asked).toHaveLength(3);
      expect(existsSync(path.join(ws, 'always3.txt'))).toBe(true);
    },
  );

  it(
    'session/cancel ends the running cell (its process is gone) and the turn with cancelled; the session answers the next prompt',
    { timeout: TEST_TIMEOUT },
    async () => {
      // In the sandbox, as any --auto-run cell runs: its pid namespace hides the sleeper's pid from the
      // cell, so the test finds it from outside by its command line (a duration no other sleep has).
      const { acp, ws } = await start(['--auto-run']);
      const sessionId = await newSession(acp, ws);
      const nap = `300.${process.pid}${Date.now() % 100_000}`;
      const code = `sh -c 'exec sleep ${nap}'; touch after.txt`;
      llm!.enqueue({ kind: 'tool', calls: [{ id: 'long', name: 'execute', arguments: { language: 'shell', code } }] });
      const answer = prompt(acp, sessionId, 'sleep a long time');
      const pid = await vi.waitFor(
        () => {
          const found = sleepers(nap);
          if (found.length !== 1) throw new Error(`the cell's sleep is not running yet (${found.length} found)`);
          return found[0]!;
        },
        { timeout: 120_000, interval: 100 },
      );
      expect(alive(pid)).toBe(true);
      await acp.connection.agent.notify('session/cancel', { sessionId });
      expect((await answer).stopReason).toBe('cancelled');
      await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 60_000, interval: 100 });
      expect(existsSync(path.join(ws, 'after.txt'))).toBe(false);
      const call = updatesOf(acp, 'tool_call', sessionId)[0]!;
      const last = updatesOf(acp, 'tool_call_update', sessionId)
        .filter((u) => u.toolCallId === call.toolCallId)
        .at(-1);
      expect(last?.status).toBe('failed');

      llm!.enqueue({ kind: 'text', text: 'Still here.' });
      const before = messageText(acp, sessionId);
      expect((await prompt(acp, sessionId, 'are you there?')).stopReason).toBe('end_turn');
      expect(messageText(acp, sessionId).slice(before.length)).toBe('Still here.');
    },
  );

  it(
    'session/cancel during a permission request the client never answers ends the turn, and the cell does not run',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { acp, ws } = await start();
      const sessionId = await newSession(acp, ws);
      llm!.enqueue({ kind: 'tool', calls: [{ id: 'q', name: 'execute', arguments: { language: 'shell', code: 'touch unanswered.txt' } }] });
      acp.answers.splice(0, Infinity, 'never');
      const answer = prompt(acp, sessionId, 'make it');
      await vi.waitFor(() => expect(acp.asked).toHaveLength(1), { timeout: 120_000, interval: 50 });
      await acp.connection.agent.notify('session/cancel', { sessionId });
      expect((await answer).stopReason).toBe('cancelled');
      expect(existsSync(path.join(ws, 'unanswered.txt'))).toBe(false);
      llm!.enqueue({ kind: 'text', text: 'Ready.' });
      expect((await prompt(acp, sessionId, 'still there?')).stopReason).toBe('end_turn');
    },
  );

  it('session/load replays a saved conversation as updates, and the next prompt continues it', { timeout: TEST_TIMEOUT }, async () => {
    const first = await start(['--auto-run']);
    const sessionId = await newSession(first.acp, first.ws);
    llm!.enqueue(
      {
        kind: 'tool',
        text: 'Looking.',
        calls: [{ id: 'l1', name: 'execute', arguments: { language: 'shell', code: 'echo remembered-$((6 * 7))' } }],
      },
      { kind: 'text', text: 'Done: remembered-42.' },
    );
    await prompt(first.acp, sessionId, 'remember something');

    // Another process, which has never held the session: it has only the saved conversation to go on.
    const second = await start();
    await second.acp.connection.agent.request('session/load', { sessionId, cwd: second.ws, mcpServers: [] });
    const replay = second.acp.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update.sessionUpdate);
    expect(replay).toEqual(['user_message_chunk', 'agent_message_chunk', 'tool_call', 'agent_message_chunk']);
    expect(updatesOf(second.acp, 'user_message_chunk', sessionId)[0]?.content).toEqual({ type: 'text', text: 'remember something' });
    const call = updatesOf(second.acp, 'tool_call', sessionId)[0]!;
    expect(call).toMatchObject({ kind: 'execute', status: 'completed' });
    expect(JSON.stringify(call.content)).toContain('remembered-42');
    expect(messageText(second.acp, sessionId)).toBe('Looking.Done: remembered-42.');

    llm!.enqueue({ kind: 'text', text: 'It was 42.' });
    expect((await prompt(second.acp, sessionId, 'what was it?')).stopReason).toBe('end_turn');
    expect(chatBodies().at(-1)).toContain('remembered-42');
    expect(savedConversation(sessionId).items.filter((i) => i.kind === 'user')).toHaveLength(2);
  });

  it('session/set_mode auto-run runs the next cell without asking, and ask asks again', { timeout: TEST_TIMEOUT }, async () => {
    const { acp, ws } = await start();
    const created = await acp.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
    expect(created.modes?.currentModeId).toBe('ask');
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(['ask', 'auto-run', 'plan']);
    const { sessionId } = created;
    await acp.connection.agent.request('session/set_mode', { sessionId, modeId: 'auto-run' });
    llm!.enqueue(touch('m1', 'unasked.txt'), { kind: 'text', text: 'Made.' });
    acp.answers.splice(0, Infinity, 'reject_once');
    expect((await prompt(acp, sessionId, 'make it')).stopReason).toBe('end_turn');
    expect(acp.asked).toHaveLength(0);
    expect(existsSync(path.join(ws, 'unasked.txt'))).toBe(true);

    await acp.connection.agent.request('session/set_mode', { sessionId, modeId: 'ask' });
    llm!.enqueue(touch('m2', 'asked.txt'), { kind: 'text', text: 'Not made.' });
    expect((await prompt(acp, sessionId, 'make another')).stopReason).toBe('end_turn');
    expect(acp.asked).toHaveLength(1);
    expect(existsSync(path.join(ws, 'asked.txt'))).toBe(false);
    expect(updatesOf(acp, 'current_mode_update', sessionId).map((u) => u.currentModeId)).toEqual(['auto-run', 'ask']);
    await expect(acp.connection.agent.request('session/set_mode', { sessionId, modeId: 'yolo' })).rejects.toThrow(/no mode "yolo"/);
  });

  it('refuses a folder the app cannot use and an unknown session, in words, and keeps serving', { timeout: TEST_TIMEOUT }, async () => {
    const { acp, ws } = await start();
    await expect(acp.connection.agent.request('session/new', { cwd: data!.dir, mcpServers: [] })).rejects.toThrow(/is the app's own data/);
    await expect(
      acp.connection.agent.request('session/prompt', { sessionId: 'nope', prompt: [{ type: 'text', text: 'hi' }] }),
    ).rejects.toThrow(/no session "nope"/);
    await expect(acp.connection.agent.request('session/load', { sessionId: 'nope', cwd: ws, mcpServers: [] })).rejects.toThrow();
    // Malformed requests are refused by the SDK's schemas, which the build has built on first use
    // (lazy-acp-schemas.config.ts): the checks still apply, and to requests whose schema was built before.
    await expect(acp.connection.agent.request('session/new', { cwd: 42, mcpServers: [] } as never)).rejects.toThrow(/Invalid params/);
    await expect(acp.connection.agent.request('session/prompt', { sessionId: 'nope', prompt: 'hi' } as never)).rejects.toThrow(
      /Invalid params/,
    );
    expect(await newSession(acp, ws)).toMatch(/\S/);
  });
});

/** The processes running `sleep <nap>`, in any pid namespace. */
const sleepers = (nap: string): number[] => processesWhere((args) => args.length === 2 && args[0] === 'sleep' && args[1] === nap);

/** Whether a process with this id exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
