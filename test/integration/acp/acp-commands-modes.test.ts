import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Conversation } from '@contract';
import { messageText, updatesOf, useOiAcp } from '../../support/oi-acp';

// `oi acp`'s slash commands and plan mode (docs/acp.md#what-an-editor-gets), driven by the ACP SDK's
// client side over a real pipe against the scripted model server: the commands are advertised, a
// `/command` prompt runs oi's `%command` without calling the model, and session/set_mode plan puts the
// conversation in plan mode (the model's request carries the plan tool) until set_mode ask takes it out.
// One `oi acp` process and one model server for the file; each test has a session and folder of its own.

const TEST_TIMEOUT = 180_000;

const oi = useOiAcp({ tmpPrefix: 'oi-acp-modes-', cwd: 'editor', timeout: TEST_TIMEOUT });
let tests = 0;

async function newSession(): Promise<{ sessionId: string; ws: string }> {
  const ws = path.join(oi.dir, `project-${++tests}`);
  mkdirSync(ws, { recursive: true });
  const { sessionId, modes } = await oi.acp.connection.agent.request('session/new', { cwd: ws, mcpServers: [] });
  expect(modes?.availableModes.map((m) => m.id)).toEqual(['ask', 'auto-run', 'plan']);
  expect(modes?.currentModeId).toBe('ask');
  return { sessionId, ws };
}
const prompt = (sessionId: string, text: string) =>
  oi.acp.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
const chatBodies = () => oi.llm.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => JSON.stringify(r.body));
const modeUpdates = (sessionId: string) => updatesOf(oi.acp, 'current_mode_update', sessionId).map((u) => u.currentModeId);
const saved = (id: string) => JSON.parse(readFileSync(path.join(oi.dir, 'conversations', `${id}.json`), 'utf8')) as Conversation;

describe('oi acp slash commands and modes', () => {
  it(
    'advertises the % commands after session/new, and a /save prompt saves the conversation in its folder without calling the model',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { sessionId, ws } = await newSession();
      const advertised = await vi.waitFor(() => {
        const update = updatesOf(oi.acp, 'available_commands_update', sessionId)[0];
        if (!update) throw new Error('no available_commands_update yet');
        return update.availableCommands;
      });
      const names = advertised.map((c) => c.name);
      expect(names).toEqual(expect.arrayContaining(['tokens', 'undo', 'rewind', 'traceback', 'save', 'export', 'commands']));
      // Those that switch to another conversation are not offered: an ACP session is one conversation.
      expect(names).not.toContain('reset');
      expect(names).not.toContain('load');
      expect(advertised.find((c) => c.name === 'save')?.input).toEqual({ hint: 'file.json' });

      oi.llm.enqueue({ kind: 'text', text: 'Hello there.' });
      expect((await prompt(sessionId, 'say hello')).stopReason).toBe('end_turn');
      const calls = chatBodies().length;
      expect((await prompt(sessionId, '/save conv.json')).stopReason).toBe('end_turn');
      const file = path.join(ws, 'conv.json');
      expect(messageText(oi.acp, sessionId)).toBe(`Hello there.Saved to ${file}.`);
      expect(readFileSync(file, 'utf8')).toContain('Hello there.');
      // The command is not a message: the model was not called and the conversation did not grow.
      expect(chatBodies()).toHaveLength(calls);
      expect(saved(sessionId).items.map((i) => i.kind)).toEqual(['user', 'assistant']);
      // A prompt that only looks like a path is a message, as in oi.
      oi.llm.enqueue({ kind: 'text', text: 'It is.' });
      await prompt(sessionId, '/tmp is full');
      expect(chatBodies().at(-1)).toContain('/tmp is full');
      expect(existsSync(path.join(ws, 'tmp'))).toBe(false);
    },
  );

  it(
    'attack: a /save through a link the workspace holds is refused, and the file the link names is untouched',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { sessionId, ws } = await newSession();
      // What a cell could have planted: the file's name as a link to a file outside, and a folder as a link outside.
      const victim = path.join(oi.dir, 'victim.txt');
      writeFileSync(victim, 'keep me\n');
      symlinkSync(victim, path.join(ws, 'notes.json'));
      symlinkSync(oi.dir, path.join(ws, 'out'));
      for (const name of ['notes.json', 'out/notes.json']) await prompt(sessionId, `/save ${name}`);
      expect(messageText(oi.acp, sessionId)).toContain('/save failed: "notes.json" goes through a link');
      expect(messageText(oi.acp, sessionId).match(/\/save failed: /g)).toHaveLength(2);
      expect(messageText(oi.acp, sessionId)).not.toContain('Saved to');
      expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
      expect(existsSync(path.join(oi.dir, 'notes.json'))).toBe(false);
      // Twin: a plain write of that name, as /save did before, writes through the link into the file outside.
      writeFileSync(path.join(ws, 'notes.json'), 'overwritten');
      expect(readFileSync(victim, 'utf8')).toBe('overwritten');
    },
  );

  it('a prompt that arrives while a /command is being answered is refused, not run beside it', { timeout: TEST_TIMEOUT }, async () => {
    const { sessionId, ws } = await newSession();
    oi.llm.enqueue({ kind: 'text', text: 'Hello there.' });
    await prompt(sessionId, 'say hello');
    // Read by oi in one chunk: the second is dispatched while the first's /export is still writing.
    const text = (t: string) => ({ sessionId, prompt: [{ type: 'text', text: t }] });
    const answers = await oi.acp.together([
      { id: 'first', method: 'session/prompt', params: text('/export first.ipynb') },
      { id: 'second', method: 'session/prompt', params: text('/save second.json') },
    ]);
    expect(answers.first).toEqual(expect.objectContaining({ result: { stopReason: 'end_turn' } }));
    expect(answers.second?.error?.message).toContain('this session is already answering a prompt');
    expect(existsSync(path.join(ws, 'first.ipynb'))).toBe(true);
    expect(existsSync(path.join(ws, 'second.json'))).toBe(false);
    // Answered, the session takes the next one.
    expect((await prompt(sessionId, '/save third.json')).stopReason).toBe('end_turn');
    expect(existsSync(path.join(ws, 'third.json'))).toBe(true);
  });

  it(
    'set_mode plan puts the conversation in plan mode (the model gets the plan tool), set_mode ask takes it out, and an unknown mode is refused by name',
    { timeout: TEST_TIMEOUT },
    async () => {
      const { sessionId } = await newSession();
      expect(await oi.acp.connection.agent.request('session/set_mode', { sessionId, modeId: 'plan' })).toEqual({});
      expect(modeUpdates(sessionId)).toEqual(['plan']);
      expect(saved(sessionId).planMode).toBe(true);
      oi.llm.enqueue({ kind: 'text', text: 'I would plan first.' });
      await prompt(sessionId, 'plan the report');
      expect(chatBodies().at(-1)).toContain('"propose_plan"');

      await oi.acp.connection.agent.request('session/set_mode', { sessionId, modeId: 'ask' });
      expect(modeUpdates(sessionId)).toEqual(['plan', 'ask']);
      expect(saved(sessionId).planMode).toBe(false);
      oi.llm.enqueue({ kind: 'text', text: 'Doing it.' });
      await prompt(sessionId, 'write the report');
      expect(chatBodies().at(-1)).toContain('write the report');
      expect(chatBodies().at(-1)).not.toContain('"propose_plan"');

      await expect(oi.acp.connection.agent.request('session/set_mode', { sessionId, modeId: 'yolo' })).rejects.toThrow(
        'no mode "yolo": ask, auto-run, plan',
      );
      // Refused: nothing changed.
      expect(modeUpdates(sessionId)).toEqual(['plan', 'ask']);
      expect(saved(sessionId).planMode).toBe(false);
    },
  );
});
