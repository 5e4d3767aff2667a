import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellItem, Conversation, HooksConfig, NoticeItem } from '@contract';
import { startAgentHarness, type AgentHarness } from '../../support/agent-harness';
import { executeAllThenSay, executeThenSay } from '../../support/scripted-replies';

// The person's hooks (docs/agent.md#hooks) through full agent turns: the scripted model server
// through the official SDK, the real exec engine, and hooks written in bash and in Python
// (/usr/bin/python3) started by the app's launcher, as the person configures them in Settings.

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/hooks');
const RUN = { bash: '/bin/bash', python: '/usr/bin/python3' } as const;
const EXT = { bash: 'sh', python: 'py' } as const;
type HookLanguage = keyof typeof RUN;

/** The command line that runs fixture `name` written in `language`, with its arguments. */
function hook(language: HookLanguage, name: string, ...args: string[]): string {
  return [RUN[language], path.join(FIXTURES, `${name}.${EXT[language]}`), ...args].map((a) => `'${a}'`).join(' ');
}

function toolMessages(body: Record<string, unknown>): string[] {
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

const cellsOf = (conv: Conversation): CellItem[] => conv.items.filter((i): i is CellItem => i.kind === 'cell');
const noticesOf = (conv: Conversation): string[] => conv.items.filter((i): i is NoticeItem => i.kind === 'notice').map((n) => n.text);
const logged = (file: string): Array<Record<string, unknown>> =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];

describe.each(['bash', 'python'] as const)('hooks written in %s', (language) => {
  let h: AgentHarness;
  afterEach(async () => h?.close());

  async function start(hooks: HooksConfig): Promise<{ id: string; workspace: string }> {
    h = await startAgentHarness({ settings: { autoRun: true, hooks } });
    const conv = await h.store.create();
    return { id: conv.id, workspace: conv.workspace };
  }

  it('refuses a cell: the model reads the reason and the cell never runs', async () => {
    const { id, workspace } = await start({ beforeCell: [{ command: hook(language, 'refuse'), timeoutSeconds: 60 }] });
    h.llm.enqueue(...executeAllThenSay('shell', ['touch forbidden-marker', 'touch allowed-marker'], 'Understood.'));
    await h.send(id, 'make the files');

    const conv = await h.agent.snapshot(id);
    const [refused, allowed] = cellsOf(conv);
    expect(refused?.status).toBe('skipped');
    expect(refused?.resultForModel).toContain('files named forbidden are off limits in this project');
    expect(existsSync(path.join(workspace, 'forbidden-marker'))).toBe(false);
    // The same hook lets other code through, and that code does run: the absence above means something.
    expect(allowed?.status).toBe('done');
    expect(existsSync(path.join(workspace, 'allowed-marker'))).toBe(true);
    const second = h.bodies()[1];
    expect(second && toolMessages(second).join('\n')).toContain('files named forbidden are off limits in this project');
    expect(noticesOf(conv).join('\n')).toMatch(/refused to run the cell: files named forbidden are off limits/);
  });

  it('logs every cell, before and after, with its status and output', async () => {
    const { id } = await start({});
    const log = path.join(h.dataDir, 'cells.log');
    h.settings.update({
      hooks: {
        beforeCell: [{ command: hook(language, 'log', log), timeoutSeconds: 60 }],
        afterCell: [{ command: hook(language, 'log', log), timeoutSeconds: 60 }],
      },
    });
    h.llm.enqueue(...executeAllThenSay('shell', ['echo logged-output-1', 'echo failing-2; exit 3'], 'Done.'));
    await h.send(id, 'run two things');

    const entries = logged(log);
    expect(entries.map((e) => e.event)).toEqual(['beforeCell', 'afterCell', 'beforeCell', 'afterCell']);
    const cells = entries.map((e) => e.cell as { code: string; language: string; status?: string; exitCode?: number });
    expect(cells[0]?.code).toBe('echo logged-output-1');
    expect(cells[1]).toMatchObject({ code: 'echo logged-output-1', status: 'done', exitCode: 0 });
    expect(entries[1]?.output).toContain('logged-output-1');
    expect(cells[3]).toMatchObject({ code: 'echo failing-2; exit 3', status: 'failed', exitCode: 3 });
    expect(entries.every((e) => e.conversationId === id)).toBe(true);
  });

  it('hangs: it is stopped at its time limit, the person is told, the cell is not run, and the turn goes on', async () => {
    const { id, workspace } = await start({});
    const pidFile = path.join(h.dataDir, 'hang.pid');
    h.settings.update({ hooks: { beforeCell: [{ command: hook(language, 'hang', pidFile), timeoutSeconds: 2 }] } });
    h.llm.enqueue(
      ...executeThenSay({ id: 'call_h', language: 'shell', code: 'touch hang-marker' }, 'The check did not answer; I will wait.'),
    );
    await h.send(id, 'make the file');

    const conv = await h.agent.snapshot(id);
    const cell = cellsOf(conv)[0];
    expect(cell?.status).toBe('skipped');
    expect(cell?.resultForModel).toMatch(/failed \(it did not answer within 2 s and was stopped\)/);
    expect(existsSync(path.join(workspace, 'hang-marker'))).toBe(false);
    expect(noticesOf(conv).join('\n')).toMatch(
      /The beforeCell hook ".*hang.*" \(Settings\) did not answer within 2 s and was stopped\. The cell was not run\./,
    );
    // The turn went on to the model's answer and ended normally.
    expect(h.bodies()).toHaveLength(2);
    expect(h.payloads('turn.end').at(-1)?.reason).toBe('done');
    // Its whole process group was killed, the child it started included.
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(pid)).toBe(false);
  });
});

describe('hook events', () => {
  let h: AgentHarness;
  afterEach(async () => h?.close());

  it('tells a hook of each event, and a beforeCell "ask" asks the person even with auto-run on', async () => {
    h = await startAgentHarness({ settings: { autoRun: true } });
    const log = path.join(h.dataDir, 'events.log');
    const logger = [{ command: hook('bash', 'log', log), timeoutSeconds: 60 }];
    writeHooksFile(h.dataDir, {
      conversationStart: logger,
      beforeModelCall: logger,
      beforeCell: [
        ...logger,
        { command: `echo '{"decision":"ask","reason":"shell code is checked by hand here"}'`, matcher: 'shell|bash' },
      ],
      afterCell: logger,
      needsPerson: logger,
      turnEnd: logger,
    });
    const conv = await h.store.create();
    h.llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_a', name: 'execute', arguments: { language: 'shell', code: 'echo asked' } }] },
      { kind: 'text', text: 'Done.' },
      { kind: 'text', text: 'Again.' },
    );
    await h.agent.send(conv.id, 'go', []);
    const waiting = await h.waitFor('cell.awaiting-approval');
    await expect.poll(() => logged(log).map((e) => e.event)).toContain('needsPerson');
    h.agent.approve(conv.id, waiting.cell.id, null, false);
    await h.agent.idle(conv.id);
    await h.send(conv.id, 'and again');

    const entries = logged(log);
    expect(entries.map((e) => e.event)).toEqual([
      'conversationStart',
      'beforeModelCall',
      'beforeCell',
      'needsPerson',
      'afterCell',
      'beforeModelCall',
      'turnEnd',
      'beforeModelCall',
      'turnEnd',
    ]);
    expect(entries[3]).toMatchObject({ waitingFor: 'approval', cell: { code: 'echo asked' } });
    expect(entries[4]).toMatchObject({ cell: { status: 'done' }, output: expect.stringContaining('asked') });
    expect(entries[6]).toMatchObject({ reason: 'done', workspace: conv.workspace });
    const after = await h.agent.snapshot(conv.id);
    expect(cellsOf(after)[0]?.approval).toBe('user');
    expect(noticesOf(after).join('\n')).toContain('asks you to decide whether this cell runs: shell code is checked by hand here');
  });

  it('tells a needsPerson hook when a running program asks the person for input', async () => {
    // Not re-run from its notebook export: the cell reads a line from a person, and nbconvert has none.
    h = await startAgentHarness({ settings: { autoRun: true, exec: { inputRequests: 'ask' } }, rerunExports: false });
    const log = path.join(h.dataDir, 'needs.log');
    writeHooksFile(h.dataDir, { needsPerson: [{ command: hook('python', 'log', log), matcher: 'input', timeoutSeconds: 60 }] });
    const conv = await h.store.create();
    h.llm.enqueue(...executeThenSay({ id: 'call_i', language: 'shell', code: 'read -p "Your name? " name; echo "hello $name"' }, 'Done.'));
    await h.agent.send(conv.id, 'ask me my name', []);
    const question = await h.waitFor('cell.input-requested');
    await expect.poll(() => logged(log)).toHaveLength(1);
    h.agent.answerInput(conv.id, question.questionId, { text: 'Ann' });
    await h.agent.idle(conv.id);

    expect(logged(log)[0]).toMatchObject({ event: 'needsPerson', waitingFor: 'input', prompt: expect.stringContaining('Your name?') });
    expect(cellsOf(await h.agent.snapshot(conv.id))[0]?.resultForModel).toContain('hello Ann');
  });
});

function writeHooksFile(dataDir: string, hooks: HooksConfig): void {
  writeFileSync(path.join(dataDir, 'hooks.json'), JSON.stringify({ hooks }));
}

function alive(pid: number): boolean {
  try {
    // A zombie (killed, not yet reaped) no longer runs anything.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}
