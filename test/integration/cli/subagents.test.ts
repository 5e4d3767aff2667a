import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyEvent } from '@contract';
import type { ScriptedLlm, ScriptedReply } from '../../fixtures/llm-server';
import { cliEnv, runOi } from '../../support/cli-process';
import { sendAndAnswer, useCliRun } from '../../support/cli-run';
import { PROXIED_HOST, startHostServer, type HostServer } from '../../support/host-server';

// Sub-agents in `oi` (docs/cli.md, docs/agent.md#sub-agents): in a pseudo-terminal each one's output
// is nested under the parent's, indented and marked with its name, after the estimate; a sub-agent's
// cell is asked about at the prompt like any other; with --json its events carry `subagent`. A sub-agent's
// questions (its program's input, a package to install) are asked with its name and answered to its own
// conversation: answered under the parent's id they found no question, and the sub-agent waited on. The
// scripted server answers each sub-agent by its name (they ask side by side), the parent from its own list.

const cli = useCliRun();
let host: HostServer;
beforeAll(async () => {
  host = await startHostServer();
});
afterAll(() => host?.close());

/**
 * A scripted model server answering each sub-agent from its own list and the parent from `parent`,
 * a fresh data folder (code runs in <dir>/ws), and the flags that point oi at the server.
 */
async function routedLlm(prefix: string, scripts: Record<string, ScriptedReply[]>) {
  const server: ScriptedLlm = await cli.llm({
    onRequest: ({ body }) => {
      const text = JSON.stringify(body ?? '');
      if (!text.includes('"model"')) return;
      const name = Object.keys(scripts).find((n) => text.includes(`You are the sub-agent \\"${n}\\"`)) ?? 'parent';
      const next = scripts[name]?.shift();
      if (next) server.enqueue(next);
    },
  });
  const dir = cli.folder(prefix);
  const flags = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', server.openaiBaseUrl, '--workspace', path.join(dir, 'ws')];
  return { llm: server, dir, flags };
}

/** A shell command that fetches the test's host through the proxy and prints the status (or that it failed). */
const curlHost = () => `curl -sS --max-time 60 -w "status %{http_code}\\n" http://${PROXIED_HOST}:${host.port}/ || echo "curl failed"`;
const execute = (id: string, language: string, code: string): ScriptedReply => ({
  kind: 'tool',
  calls: [{ id, name: 'execute', arguments: { language, code } }],
});
/** Everything the sub-agents' model calls carried: their cells' results among it. */
const subagentResults = (server: ScriptedLlm): string =>
  JSON.stringify(server.requests.filter((r) => JSON.stringify(r.body ?? '').includes('You are the sub-agent')).map((r) => r.body));
const delegate = (id: string, name: string, task: string) => ({ id, name: 'delegate', arguments: { name, task, returns: 'one word' } });
/** The parent's script: one task for one sub-agent, then its answer. */
const delegateOnce = (name: string, task: string, answer: string): ScriptedReply[] => [
  { kind: 'tool', calls: [delegate('d1', name, task)] },
  { kind: 'text', text: answer },
];
const script = (): Record<string, ScriptedReply[]> => ({
  parent: [
    { kind: 'tool', calls: [delegate('d1', 'left', 'Print LEFT.'), delegate('d2', 'right', 'Say right.')] },
    { kind: 'text', text: 'Both sub-agents answered.' },
  ],
  left: [
    { kind: 'tool', calls: [{ id: 'l1', name: 'execute', arguments: { language: 'shell', code: 'echo LEFT-OUT' } }] },
    { kind: 'text', text: 'LEFT-ANSWER' },
  ],
  right: [{ kind: 'text', text: 'RIGHT-ANSWER' }],
});

describe('oi with sub-agents', () => {
  it('prints each sub-agent nested under its name, asks about its code at the prompt, and ends with each one’s cost', async () => {
    const { dir, flags } = await routedLlm('oi-cli-subagents-', script());
    const oi = cli.terminal(flags, cliEnv(dir), { cols: 100 });
    await sendAndAnswer(oi, 'split it', 'y');
    await oi.expect('Both sub-agents answered.');
    const screen = (await oi.screen()).join('\n');
    expect(screen).toMatch(/⇉ sub-agents, estimated up to \$[\d.]+ in total: left \(gpt-4o\) ≤ \$[\d.]+, right \(gpt-4o\) ≤ \$[\d.]+/);
    expect(screen).toContain('▸ sub-agent left started (openai / gpt-4o)');
    // The sub-agent's code, its output and its answer, each line indented under its name.
    expect(screen).toMatch(/^ {2}│ left {2}echo LEFT-OUT$/m);
    expect(screen).toMatch(/^ {2}│ left {2}LEFT-OUT$/m);
    expect(screen).toMatch(/^ {2}│ left {2}LEFT-ANSWER$/m);
    expect(screen).toMatch(/^ {2}│ right {2}RIGHT-ANSWER$/m);
    expect(screen).toMatch(/^◂ sub-agent left done · [\d,]+ tokens, \$[\d.]+$/m);
    expect(screen).toMatch(/^◂ sub-agent right done · [\d,]+ tokens, \$[\d.]+$/m);
    // The call's arguments are not printed as the parent's code.
    expect(screen).not.toContain('"returns"');
  });

  it('asks a sub-agent’s input and network questions at the prompt with its name, and answers them to it', async () => {
    const curl = curlHost();
    const { llm, dir, flags } = await routedLlm('oi-cli-subagents-ask-', {
      parent: delegateOnce('asker', 'Greet and fetch.', 'The asker answered.'),
      asker: [
        execute('a1', 'python', 'name = input("Your name? ")\nprint("HELLO-" + name)'),
        execute('a2', 'shell', curl),
        { kind: 'text', text: 'ASKER-DONE' },
      ],
    });
    const oi = cli.terminal([...flags, '--auto-run'], cliEnv(dir), { cols: 100 });
    const before = host.served();
    await oi.expect('> ');
    await oi.enter('ask me through a sub-agent', '[asker] (input; Ctrl-D ends it) Your name? ');
    await oi.enter(
      'Ada',
      'HELLO-Ada',
      `The code wants to connect to ${PROXIED_HOST}:${host.port}`,
      '[asker] Allow it? (y)es in this conversation, (a)lways, (n)o',
    );
    await oi.enter('n', 'The asker answered.');
    // The answers reached the sub-agent's cells: what its model was told of each.
    const told = subagentResults(llm);
    expect(told).toContain('HELLO-Ada');
    expect(told).toContain('status 403');
    expect(host.served()).toBe(before);
    // The typed answer is shown once, on the question's line, not echoed again under the sub-agent.
    expect((await oi.screen()).filter((r) => r.includes('Ada') && !r.includes('HELLO'))).toEqual([
      '[asker] (input; Ctrl-D ends it) Your name? Ada',
    ]);
  });

  it('without a terminal, refuses a sub-agent’s host to the sub-agent, which finishes', async () => {
    const curl = curlHost();
    const { llm, dir, flags } = await routedLlm('oi-cli-subagents-noterm-', {
      parent: delegateOnce('fetcher', 'Fetch it.', 'Fetcher came back.'),
      fetcher: [execute('f1', 'shell', curl), { kind: 'text', text: 'FETCHER-DONE' }],
    });
    const before = host.served();
    const result = await runOi([...flags, '-y', '-m', 'fetch through a sub-agent'], cliEnv(dir));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`Not letting the code reach ${PROXIED_HOST}: no terminal to ask`);
    expect(subagentResults(llm)).toContain('status 403');
    expect(result.stdout).toContain('Fetcher came back.');
    expect(host.served()).toBe(before);
  });

  it('--json gives a sub-agent’s events with its conversation id and name', async () => {
    const { dir, flags } = await routedLlm('oi-cli-subagents-json-', script());
    const result = await runOi([...flags, '-y', '--json', '-m', 'split it'], cliEnv(dir));
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AnyEvent & { subagent?: { conversationId: string; name: string } });
    // Each sub-agent's updates (started, then its spending as it goes, then its end), by its delegate cell.
    const byCell = new Map<string, { conversationId: string; name: string }>();
    for (const e of lines)
      if (e.name === 'subagent.updated' && e.payload.subagent.status === 'running') byCell.set(e.payload.cellId, e.payload.subagent);
    const started = [...byCell.values()];
    expect(started.map((s) => s.name).sort()).toEqual(['left', 'right']);
    const leftId = started.find((s) => s.name === 'left')?.conversationId;
    const leftEvents = lines.filter((e) => e.subagent?.name === 'left');
    expect(
      leftEvents.every(
        (e) => e.subagent?.conversationId === leftId && (e.payload as { conversationId?: string }).conversationId === leftId,
      ),
    ).toBe(true);
    expect(leftEvents.map((e) => e.name)).toEqual(expect.arrayContaining(['turn.start', 'cell.running', 'cell.done', 'turn.end']));
    expect(lines.at(-1)).toMatchObject({ name: 'result', payload: { reason: 'done', exitCode: 0 } });
  });
});
