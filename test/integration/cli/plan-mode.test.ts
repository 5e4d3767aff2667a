import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, OiTerminal, runOi } from '../../support/cli-process';
import { useFileLlm } from '../../support/cli-run';

// Plan mode and the task list in `oi` (docs/cli.md#plan-mode): `oi --plan` in a pseudo-terminal
// prints the proposed plan and asks y/e/n; e opens $EDITOR on the steps, one a line (here a real
// command that edits the file); the approved plan runs with the task list printed compactly at each
// change; /plan switches the mode back on. With --json the list arrives as tasks.updated events.

const shared = useFileLlm('oi-cli-plan-', { models: ['planner'] });
const model = () => ['--provider', 'openai-compatible', '--model', 'planner', '--base-url', shared.llm().openaiBaseUrl];

describe('oi --plan', () => {
  it('prints the plan, edits it in $EDITOR on e, runs it with the task list printed at each change, and /plan switches back', async () => {
    const ws = path.join(shared.dir(), 'ws');
    mkdirSync(ws, { recursive: true });
    shared.llm().enqueue(
      { kind: 'tool', calls: [{ id: 'p1', name: 'propose_plan', arguments: { steps: ['Read data', 'Write report'] } }] },
      { kind: 'tool', calls: [{ id: 't1', name: 'update_tasks', arguments: { action: 'start', ids: [1, 2] } }] },
      {
        kind: 'tool',
        calls: [{ id: 'e1', name: 'execute', arguments: { language: 'shell', code: 'printf ok > report.txt' } }],
      },
      { kind: 'tool', calls: [{ id: 't2', name: 'update_tasks', arguments: { action: 'done', ids: [1, 2] } }] },
      { kind: 'text', text: 'Report written.' },
    );
    // The editor: a real command run on the steps' file, as the person's editor would be.
    const editor = path.join(shared.dir(), 'edit-steps.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/Write report/Write report.txt/" "$1"\n', { mode: 0o755 });
    const oi = new OiTerminal(
      [...model(), '--plan', '--auto-run', '--workspace', ws, 'Make the report'],
      cliEnv(shared.dir(), { EDITOR: editor }),
    );
    try {
      await oi.expectEach(
        'Plan mode: code runs read-only in the sandbox',
        '── proposed plan ──',
        '1. Read data',
        '2. Write report',
        'Approve this plan? (y)es, (e)dit, (n)o:',
      );
      expect(existsSync(path.join(ws, 'report.txt'))).toBe(false);
      await oi.enter(
        'e',
        '── edited plan ──',
        '2. Write report.txt',
        '(plan mode off: code runs as usual)',
        'Tasks — 0 of 2 steps done',
        '[ ] 2. Write report.txt',
        '✓ plan approved',
        '[>] 1. Read data',
        'Tasks — 2 of 2 steps done',
        '[x] 2. Write report.txt',
        'Report written.',
      );
      expect(readFileSync(path.join(ws, 'report.txt'), 'utf8')).toBe('ok');
      // The call's JSON is not printed as code.
      expect(oi.output).not.toContain('"action"');
      await oi.enter('/plan', '(plan mode on: code runs read-only in the sandbox until you approve a plan');
      oi.line('exit');
      expect(await oi.exited).toBe(0);
    } finally {
      oi.kill();
    }
  });

  it('sends the task list as tasks.updated events with --json, and says when a turn ends with steps open', async () => {
    shared
      .llm()
      .enqueue(
        { kind: 'tool', calls: [{ id: 'a1', name: 'update_tasks', arguments: { action: 'add', steps: ['Fetch', 'Plot'] } }] },
        { kind: 'text', text: 'Fetched.' },
      );
    const json = await runOi([...model(), '--workspace', path.join(shared.dir(), 'ws2'), '--json', '-m', 'start'], cliEnv(shared.dir()));
    expect(json.code, json.stderr).toBe(0);
    const events = json.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { name: string; payload: Record<string, unknown> });
    const updated = events.find((e) => e.name === 'tasks.updated');
    expect(updated?.payload.tasks).toEqual([
      { id: 1, title: 'Fetch', state: 'pending' },
      { id: 2, title: 'Plot', state: 'pending' },
    ]);
    const note = events.find((e) => e.name === 'notice' && JSON.stringify(e.payload).includes('still open'));
    expect(JSON.stringify(note?.payload)).toContain('The turn ended with 2 steps of the task list still open.');
  });
});
