import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyEvent } from '@contract';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply } from '../../fixtures/llm-server';
import { cliEnv, OiTerminal, runOi, tempDir } from '../../support/cli-process';

// Sub-agents in `oi` (docs/cli.md, docs/agent.md#sub-agents): in a pseudo-terminal each one's output
// is nested under the parent's, indented and marked with its name, after the estimate; a sub-agent's
// cell is asked about at the prompt like any other; with --json its events carry `subagent`. The
// scripted server answers each sub-agent by its name (they ask side by side), the parent from its own list.

let llm: ScriptedLlm | null = null;
let data: ReturnType<typeof tempDir> | null = null;
let oi: OiTerminal | null = null;
afterEach(async () => {
  oi?.kill();
  await oi?.exited;
  await llm?.close();
  data?.remove();
  oi = llm = data = null;
});

async function routedLlm(scripts: Record<string, ScriptedReply[]>): Promise<ScriptedLlm> {
  const server: ScriptedLlm = await startScriptedLlm({
    onRequest: ({ body }) => {
      const text = JSON.stringify(body ?? '');
      if (!text.includes('"model"')) return;
      const name = Object.keys(scripts).find((n) => text.includes(`You are the sub-agent \\"${n}\\"`)) ?? 'parent';
      const next = scripts[name]?.shift();
      if (next) server.enqueue(next);
    },
  });
  return server;
}

const delegate = (id: string, name: string, task: string) => ({ id, name: 'delegate', arguments: { name, task, returns: 'one word' } });
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
    llm = await routedLlm(script());
    data = tempDir('oi-cli-subagents-');
    const flags = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl];
    oi = new OiTerminal([...flags, '--workspace', path.join(data.dir, 'ws')], cliEnv(data.dir), { cols: 100 });
    await oi.expect('> ');
    oi.line('split it');
    await oi.expect('Run this code?');
    oi.line('y');
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

  it('--json gives a sub-agent’s events with its conversation id and name', async () => {
    llm = await routedLlm(script());
    data = tempDir('oi-cli-subagents-json-');
    const flags = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl];
    const result = await runOi([...flags, '--workspace', path.join(data.dir, 'ws'), '-y', '--json', '-m', 'split it'], cliEnv(data.dir));
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
