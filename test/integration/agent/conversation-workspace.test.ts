import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnyEvent, RequestInput, RequestName, RequestOutput } from '@contract';
import type { App } from '../../../src-main/core/app';
import { createTestApp } from '../../support/test-app';
import { createDispatcher, type Dispatcher } from '../../../src-main/core/bridge/dispatch';
import { MemorySecretStore } from '../../../src-main/core/secrets/memory-secret-store';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { SANDBOX_CHOSEN_OFF } from '../../support/sandbox-choice';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { executeThenSay } from '../../support/scripted-replies';

// Choosing a conversation's folder and deleting it with its files, through the real handler table:
// contract validation, the agent, real shell and Python sessions under node-pty, the scripted model.

let app: App;
let dispatch: Dispatcher;
let llm: ScriptedLlm;
let settings: MemorySettingsStore;
let dataDir: string;
let scratch: string;
const events: AnyEvent[] = [];

beforeEach(async () => {
  llm = await startScriptedLlm();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'oi-conv-ws-'));
  scratch = mkdtempSync(path.join(os.tmpdir(), 'oi-chosen-'));
  const secrets = new MemorySecretStore();
  await secrets.set('provider:openai', 'sk-test-workspace');
  settings = new MemorySettingsStore({
    provider: 'openai',
    baseUrl: llm.openaiBaseUrl,
    model: 'gpt-4o',
    autoRun: true,
    exec: { pythonPath: '/usr/bin/python3', timeoutMs: 30_000 },
    // Cells here wait on files outside their workspace (the chosen folders).
    ...SANDBOX_CHOSEN_OFF,
  });
  app = createTestApp({ dataDir, settings, secrets });
  dispatch = createDispatcher(app.handlers);
  events.length = 0;
  app.events.subscribe((event) => void events.push(event));
});
afterEach(async () => {
  await app.dispose();
  await llm.close();
  for (const dir of [dataDir, scratch]) rmSync(dir, { recursive: true, force: true });
});

async function call<N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestOutput<N>> {
  const reply = await dispatch(name, input, { transport: 'websocket' });
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.result as RequestOutput<N>;
}

/** A folder under the test's scratch space, with the files given (path → text). */
function folder(name: string, files: Record<string, string> = {}): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

async function runTurn(conversationId: string, text: string): Promise<void> {
  await call('chat.send', { conversationId, text });
  await app.context.agent.idle(conversationId);
}

function waitForEvent(match: (event: AnyEvent) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (events.some(match)) return resolve();
    const off = app.events.subscribe((event) => {
      if (!match(event)) return;
      off();
      resolve();
    });
  });
}

interface ChatBody {
  messages: Array<{ role: string; content: string | null | Array<{ type: string; text?: string }> }>;
}

function userTexts(body: ChatBody): string[] {
  return body.messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join('')));
}

describe('conversation.set-workspace', () => {
  it('refuses paths that are not usable folders, saying why, and changes nothing', async () => {
    const conv = await call('conversation.create', {});
    mkdirSync(path.join(dataDir, 'conversations'), { recursive: true });
    const file = path.join(folder('plain'), 'notes.txt');
    writeFileSync(file, 'x');
    const cases: Array<[string, RegExp]> = [
      ['some/relative/folder', /"some\/relative\/folder" is not an absolute path/],
      ['~/projects', /starts with ~, which only a shell expands/],
      [path.join(scratch, 'missing'), /there is no folder at .*missing/],
      [file, /notes\.txt is a file, not a folder/],
      [path.join(file, 'inside'), /is not a folder: a part of the path is a file/],
      ['', /path: the path is empty/],
      [dataDir, /is the app's own data/],
      [path.join(dataDir, 'workspaces'), /is the app's own data/],
      [path.join(dataDir, 'conversations'), /is the app's own data/],
    ];
    for (const [given, reason] of cases) {
      await expect(call('conversation.set-workspace', { conversationId: conv.id, path: given }), given).rejects.toThrow(reason);
    }
    const after = await call('conversation.get', { conversationId: conv.id });
    expect(after.workspace).toBe(conv.workspace);
    expect(after.items).toEqual([]);
    await expect(call('conversation.set-workspace', { conversationId: 'no-such-conversation', path: scratch })).rejects.toThrow(
      /no conversation with id/,
    );
  });

  it('runs the next Python and shell code in the new folder, and tells the model once', async () => {
    const conv = await call('conversation.create', {});
    const old = conv.workspace;
    // A live shell session whose working directory is the old folder.
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_before', name: 'execute', arguments: { language: 'shell', code: 'pwd > before.txt' } }] },
      { kind: 'text', text: 'Noted.' },
    );
    await runTurn(conv.id, 'Where are you?');
    expect(realpathSync(readFileSync(path.join(old, 'before.txt'), 'utf8').trim())).toBe(realpathSync(old));

    const chosen = folder('project', { 'data.csv': 'a,b\n1,2\n' });
    const moved = await call('conversation.set-workspace', { conversationId: conv.id, path: `${chosen}/` });
    expect(moved.workspace).toBe(chosen);
    const notice = moved.items.at(-1);
    expect(notice).toMatchObject({ kind: 'notice', workspaceChange: { from: old, to: chosen } });
    expect(events.some((e) => e.name === 'notice' && e.payload.item.id === notice?.id)).toBe(true);
    expect((await call('conversation.list', {})).find((c) => c.id === conv.id)?.workspace).toBe(chosen);

    llm.enqueue(
      {
        kind: 'tool',
        calls: [
          {
            id: 'call_py',
            name: 'execute',
            arguments: {
              language: 'python',
              code: 'import os\nopen("from_python.txt", "w").write(os.getcwd())\nprint(open("data.csv").read().splitlines()[1])',
            },
          },
          { id: 'call_sh', name: 'execute', arguments: { language: 'shell', code: 'pwd > from_shell.txt' } },
        ],
      },
      { kind: 'text', text: 'Both ran.' },
    );
    await runTurn(conv.id, 'Write where you are');
    const real = realpathSync(chosen);
    expect(realpathSync(readFileSync(path.join(chosen, 'from_python.txt'), 'utf8'))).toBe(real);
    expect(realpathSync(readFileSync(path.join(chosen, 'from_shell.txt'), 'utf8').trim())).toBe(real);
    expect(existsSync(path.join(old, 'from_shell.txt'))).toBe(false);
    expect(existsSync(path.join(old, 'from_python.txt'))).toBe(false);
    const cells = (await call('conversation.get', { conversationId: conv.id })).items.filter((i) => i.kind === 'cell');
    expect(cells.at(-2)).toMatchObject({ status: 'done', resultForModel: expect.stringContaining('1,2') });

    // Every call after the move carries the note once, ahead of the message that followed it.
    const bodies = llm.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatBody);
    expect(bodies).toHaveLength(4);
    for (const body of bodies.slice(0, 2)) expect(userTexts(body).join('\n')).not.toContain('the workspace is now');
    for (const body of bodies.slice(2)) {
      const texts = userTexts(body);
      expect(texts.filter((t) => t.includes(`the workspace is now ${chosen} (it was ${old})`))).toHaveLength(1);
      expect(texts.at(-1)).toMatch(/^\[Note from the app[^\]]*\]\n\nWrite where you are$/);
    }
  });

  it('is refused while a cell runs, and accepted once it has finished', async () => {
    const conv = await call('conversation.create', {});
    const release = path.join(scratch, 'release');
    llm.enqueue(
      ...executeThenSay(
        { id: 'call_wait', language: 'shell', code: `while [ ! -e '${release}' ]; do sleep 0.05; done; echo released` },
        'Done waiting.',
      ),
    );
    await call('chat.send', { conversationId: conv.id, text: 'Wait for the file' });
    await waitForEvent((e) => e.name === 'cell.running' && e.payload.conversationId === conv.id);

    const chosen = folder('later');
    await expect(call('conversation.set-workspace', { conversationId: conv.id, path: chosen })).rejects.toThrow(
      /cannot change the folder while the agent is working in this conversation: stop it first/,
    );
    expect((await call('conversation.get', { conversationId: conv.id })).workspace).toBe(conv.workspace);

    writeFileSync(release, '');
    await app.context.agent.idle(conv.id);
    const cell = (await call('conversation.get', { conversationId: conv.id })).items.find((i) => i.kind === 'cell');
    expect(cell).toMatchObject({ status: 'done' });
    expect((await call('conversation.set-workspace', { conversationId: conv.id, path: chosen })).workspace).toBe(chosen);
  });
});

describe('conversation.create with a folder', () => {
  it('works in the given folder after the same checks, and refuses a bad one without creating anything', async () => {
    const chosen = folder('mine', { 'keep.txt': 'mine' });
    await expect(call('conversation.create', { title: 'Bad', workspace: path.join(scratch, 'nowhere') })).rejects.toThrow(
      /there is no folder at/,
    );
    await expect(call('conversation.create', { title: 'Bad', workspace: 'relative' })).rejects.toThrow(/not an absolute path/);
    expect(await call('conversation.list', {})).toEqual([]);

    const conv = await call('conversation.create', { title: 'Mine', workspace: chosen });
    expect(conv.workspace).toBe(chosen);
    expect(existsSync(path.join(dataDir, 'workspaces', conv.id))).toBe(false);
    expect(await call('workspace.tree', { conversationId: conv.id })).toMatchObject({
      entries: [expect.objectContaining({ path: 'keep.txt' })],
    });
    expect(await call('conversation.workspace-info', { conversationId: conv.id })).toEqual({
      path: chosen,
      managed: false,
      files: 1,
      capped: false,
    });
  });
});

describe('conversation.delete with removeWorkspace', () => {
  it('removes the folder the app made, after closing its sessions, without following links out of it', async () => {
    const conv = await call('conversation.create', {});
    const managed = conv.workspace;
    expect(managed).toBe(path.join(dataDir, 'workspaces', conv.id));
    llm.enqueue(
      ...executeThenSay(
        { id: 'call_w', language: 'shell', code: 'mkdir -p sub && echo one > sub/one.txt && echo two > two.txt' },
        'Wrote.',
      ),
    );
    await runTurn(conv.id, 'Write two files');
    const outside = folder('outside', { 'precious.txt': 'keep me' });
    symlinkSync(outside, path.join(managed, 'link-to-outside'));
    await call('workspace.tree', { conversationId: conv.id });

    // .oi (the app's own spill files) is not counted; the link is one entry, not followed.
    expect(await call('conversation.workspace-info', { conversationId: conv.id })).toEqual({
      path: managed,
      managed: true,
      files: 3,
      capped: false,
    });
    expect(await call('conversation.delete', { conversationId: conv.id, removeWorkspace: true })).toEqual({ ok: true });

    expect(existsSync(managed)).toBe(false);
    expect(readFileSync(path.join(outside, 'precious.txt'), 'utf8')).toBe('keep me');
    await expect(call('conversation.get', { conversationId: conv.id })).rejects.toThrow(/no conversation with id/);
  });

  it('refuses a folder the user chose, leaving the conversation and every file in place', async () => {
    const chosen = folder('user-project', { 'main.py': 'print(1)\n', 'docs/readme.md': '# hi\n' });
    const conv = await call('conversation.create', { workspace: chosen });
    await expect(call('conversation.delete', { conversationId: conv.id, removeWorkspace: true })).rejects.toThrow(
      /nothing was deleted: its folder .*user-project was chosen, not made by the app/,
    );
    expect(readFileSync(path.join(chosen, 'main.py'), 'utf8')).toBe('print(1)\n');
    expect(readFileSync(path.join(chosen, 'docs', 'readme.md'), 'utf8')).toBe('# hi\n');
    expect((await call('conversation.get', { conversationId: conv.id })).workspace).toBe(chosen);

    // A conversation moved away from its own folder: its current folder is the user's, so also refused.
    const movedAway = await call('conversation.create', {});
    await call('conversation.set-workspace', { conversationId: movedAway.id, path: chosen });
    await expect(call('conversation.delete', { conversationId: movedAway.id, removeWorkspace: true })).rejects.toThrow(
      /was chosen, not made by the app/,
    );
    expect(existsSync(movedAway.workspace)).toBe(true);

    // Without the flag the conversation goes and the folder stays, as before.
    await call('conversation.delete', { conversationId: conv.id });
    expect(existsSync(path.join(chosen, 'main.py'))).toBe(true);
  });

  it('refuses the shared workspace root and a folder another conversation also works in', async () => {
    const shared = folder('shared-root', { 'team.txt': 'shared' });
    settings.update({ workspaceRoot: shared });
    const inRoot = await call('conversation.create', {});
    expect(inRoot.workspace).toBe(shared);
    expect((await call('conversation.workspace-info', { conversationId: inRoot.id })).managed).toBe(false);
    await expect(call('conversation.delete', { conversationId: inRoot.id, removeWorkspace: true })).rejects.toThrow(
      /shared workspace root from the settings/,
    );
    expect(existsSync(path.join(shared, 'team.txt'))).toBe(true);

    settings.update({ workspaceRoot: null });
    const owner = await call('conversation.create', { title: 'Owner' });
    const guest = await call('conversation.create', { title: 'Guest' });
    await call('conversation.set-workspace', { conversationId: guest.id, path: owner.workspace });
    expect((await call('conversation.workspace-info', { conversationId: owner.id })).managed).toBe(false);
    await expect(call('conversation.delete', { conversationId: owner.id, removeWorkspace: true })).rejects.toThrow(
      /the conversation “Guest” also works in/,
    );
    expect(existsSync(owner.workspace)).toBe(true);
  });

  it('refuses when the app’s folder was replaced by a link', async () => {
    const conv = await call('conversation.create', {});
    const elsewhere = folder('elsewhere', { 'a.txt': 'a' });
    rmSync(conv.workspace, { recursive: true });
    symlinkSync(elsewhere, conv.workspace);
    await expect(call('conversation.delete', { conversationId: conv.id, removeWorkspace: true })).rejects.toThrow(
      /is a symbolic link, not the folder the app made/,
    );
    expect(existsSync(path.join(elsewhere, 'a.txt'))).toBe(true);
  });
});
