import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runOi } from '../../support/cli-process';
import { useCliRun } from '../../support/cli-run';
import { call, textOf, useOiMcp } from '../../support/oi-mcp';

// `oi` runs the person's hooks from <data folder>/hooks.json like the app (the same core), and prints
// what they did as notices: a refusal with its reason, a hook that hung and was stopped.

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/hooks');

const cli = useCliRun();

describe('oi -m with hooks in the data folder', () => {
  it('prints a refusal and a hook that hung, never runs the refused cell, and finishes the turn', async () => {
    const { llm, dir } = await cli.start('oi-cli-hooks-');
    const workspace = path.join(dir, 'ws');
    mkdirSync(workspace);
    const pidFile = path.join(dir, 'hang.pid');
    writeFileSync(
      path.join(dir, 'hooks.json'),
      JSON.stringify({
        hooks: {
          beforeCell: [{ command: `/bin/bash '${path.join(FIXTURES, 'refuse.sh')}'`, timeoutSeconds: 60 }],
          afterCell: [{ command: `/usr/bin/python3 '${path.join(FIXTURES, 'hang.py')}' '${pidFile}'`, timeoutSeconds: 2 }],
        },
      }),
    );
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'call_1', name: 'execute', arguments: { language: 'shell', code: 'touch forbidden-marker' } }] },
      { kind: 'text', text: 'The hook refused it.' },
    );
    const args = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl];
    const result = await runOi([...args, '--workspace', workspace, '--auto-run', '-m', 'make the file'], cliEnv(dir));

    const printed = `${result.stdout}\n${result.stderr}`;
    expect(result.code).toBe(0);
    expect(printed).toContain('refused to run the cell: files named forbidden are off limits in this project');
    expect(printed).toMatch(/The afterCell hook ".*hang\.py.*" \(.*hooks\.json\) did not answer within 2 s and was stopped/);
    expect(printed).toContain('The hook refused it.');
    expect(existsSync(path.join(workspace, 'forbidden-marker'))).toBe(false);
  });
});

const oiMcp = useOiMcp();

describe('oi mcp with hooks in the data folder (issue 28)', { timeout: 180_000 }, () => {
  it("runs conversationStart, beforeCell (refuse, ask), needsPerson and afterCell hooks around an MCP client's runs", async () => {
    const { env, ws, dir } = oiMcp.data('oi-mcp-hooks-');
    mkdirSync(ws);
    const log = path.join(dir, 'events.jsonl');
    const logHook = { command: `/bin/bash '${path.join(FIXTURES, 'log.sh')}' '${log}'` };
    // "ask" for code that names the person: the desktop app is asked even with --auto-run.
    const askHook = { command: `/bin/bash -c 'grep -q ask-the-person && echo "{\\"decision\\":\\"ask\\"}"; exit 0'` };
    writeFileSync(
      path.join(dir, 'hooks.json'),
      JSON.stringify({
        hooks: {
          conversationStart: [logHook],
          beforeCell: [{ command: `/bin/bash '${path.join(FIXTURES, 'refuse.sh')}'`, matcher: 'shell' }, askHook],
          needsPerson: [logHook],
          afterCell: [logHook],
        },
      }),
    );
    const { client, stderr } = await oiMcp.stdio(['--workspace', ws, '--auto-run'], env, ws);

    expect(textOf(await call(client, 'execute', { language: 'python', code: 'print(6 * 7)' }))).toBe('42');
    const refused = await call(client, 'execute', { language: 'shell', code: 'touch forbidden-marker' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('a hook the person set up refused this code. Its reason: files named forbidden are off limits');
    expect(existsSync(path.join(ws, 'forbidden-marker'))).toBe(false);
    // No desktop app runs here: the question the hook asked for cannot be answered, so the code does not run.
    const asked = await call(client, 'execute', { language: 'python', code: 'open("asked-marker", "w"); print("ask-the-person")' });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toMatch(/oi mcp did not run code: it asked the desktop app/);
    expect(existsSync(path.join(ws, 'asked-marker'))).toBe(false);

    // needsPerson hooks are not waited for (the question is shown at once): their line comes when it comes.
    const lines = () => readFileSync(log, 'utf8').trim().split('\n');
    await expect.poll(() => lines().length, { timeout: 30_000 }).toBe(3);
    const events = lines().map(
      (line) => JSON.parse(line) as { event: string; cell?: { code: string; status?: string }; waitingFor?: string; output?: string },
    );
    expect(events.map((e) => e.event)).toEqual(['conversationStart', 'afterCell', 'needsPerson']);
    expect(events[1]).toMatchObject({ cell: { code: 'print(6 * 7)', status: 'done' }, output: expect.stringContaining('42') });
    expect(events[2]).toMatchObject({ waitingFor: 'approval', cell: { code: expect.stringContaining('ask-the-person') } });
    // The refusal is told to the person who started the server, as `oi` prints it.
    expect(stderr()).toContain('refused to run the cell: files named forbidden are off limits in this project');
  });
});
