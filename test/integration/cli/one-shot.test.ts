import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultSettings, events as eventSchemas, type AnyEvent, type EventName } from '@contract';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi, tempDir } from './support/cli-process';

let llm: ScriptedLlm | null = null;
let data: ReturnType<typeof tempDir> | null = null;
afterEach(async () => {
  await llm?.close();
  data?.remove();
  llm = null;
  data = null;
});

function parseEvents(stdout: string): AnyEvent[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const event = JSON.parse(line) as AnyEvent;
      // Every line is one of the contract's events, valid against its schema.
      expect(eventSchemas[event.name as EventName].safeParse(event.payload).success).toBe(true);
      return event;
    });
}

describe('oi -m … --json', () => {
  it('completes a tool-call turn with --auto-run, printing one contract event per line', async () => {
    llm = await startScriptedLlm();
    data = tempDir('oi-cli-');
    llm.enqueue(
      { kind: 'tool', text: 'Checking.', calls: [{ id: 'call_cli', name: 'execute', arguments: { language: 'shell', code: 'echo cli-$((20 + 22))' } }] },
      { kind: 'text', text: 'It printed cli-42.' },
    );
    const workspace = path.join(data.dir, 'ws');
    const result = await runOi(['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--workspace', workspace, '--auto-run', '--json', '-m', 'run something'], cliEnv(data.dir));

    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    // No sandbox is on: said once, before anything runs, in the words of the desktop app's confirmation.
    expect(result.stderr.match(/auto-run is on/g)).toHaveLength(1);
    expect(result.stderr).toContain("oi: auto-run is on: the model's code runs without asking. No sandbox: code will run as you, with access to your files");
    const events = parseEvents(result.stdout);
    const names = events.map((e) => e.name);
    expect(names[0]).toBe('item.added');
    expect(names).toContain('cell.running');
    expect(names.at(-1)).toBe('turn.end');
    const done = events.find((e) => e.name === 'cell.done');
    expect(done?.name === 'cell.done' && done.payload.cell).toMatchObject({ status: 'done', approval: 'auto', toolCallId: 'call_cli' });
    expect(events.filter((e) => e.name === 'cell.terminal').map((e) => (e.name === 'cell.terminal' ? e.payload.data : '')).join('')).toContain('cli-42');
    const end = events.at(-1);
    expect(end?.name === 'turn.end' && end.payload.reason).toBe('done');

    // The tool result reached the model, from the workspace given on the command line.
    expect(JSON.stringify(llm.requests.at(-1)?.body)).toContain('cli-42');
    expect(llm.requests.at(-1)?.headers.authorization).toBe('Bearer sk-test-cli');
    // The conversation was saved where the desktop app would find it.
    expect(readdirSync(path.join(data.dir, 'conversations')).filter((n) => n.endsWith('.json'))).toHaveLength(1);
  });

  it('does not warn about auto-run when the sandbox is on, nor when code asks first', async () => {
    llm = await startScriptedLlm();
    data = tempDir('oi-cli-');
    const sandboxed = { ...defaultSettings, sandbox: { enabled: true, allowNetwork: false, extraPaths: [] } };
    writeFileSync(path.join(data.dir, 'settings.json'), JSON.stringify(sandboxed));
    llm.enqueue({ kind: 'text', text: 'Hi.' }, { kind: 'text', text: 'Hi again.' });
    const base = ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl];
    const on = await runOi([...base, '--auto-run', '-m', 'hi'], cliEnv(data.dir));
    expect(on.code).toBe(0);
    expect(on.stderr).not.toContain('auto-run is on');
    writeFileSync(path.join(data.dir, 'settings.json'), JSON.stringify(defaultSettings));
    const asking = await runOi([...base, '-m', 'hi'], cliEnv(data.dir));
    expect(asking.code).toBe(0);
    expect(asking.stderr).not.toContain('auto-run is on');
  });

  it('exits non-zero when the turn fails, with the reason in the events', async () => {
    llm = await startScriptedLlm();
    data = tempDir('oi-cli-');
    llm.enqueue({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    const result = await runOi(['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '--json', '-m', 'hi'], cliEnv(data.dir));
    expect(result.code).not.toBe(0);
    const events = parseEvents(result.stdout);
    const end = events.at(-1);
    expect(end?.name === 'turn.end' && end.payload.reason).toBe('error');
    expect(events.some((e) => e.name === 'notice' && /refused the key/.test(e.payload.item.text))).toBe(true);
  });

  it('declines code when there is no terminal to ask and no --auto-run, and says how to allow it', async () => {
    llm = await startScriptedLlm();
    data = tempDir('oi-cli-');
    llm.enqueue({ kind: 'tool', calls: [{ id: 'c', name: 'execute', arguments: { language: 'shell', code: 'touch should-not-exist' } }] }, { kind: 'text', text: 'Not run.' });
    const result = await runOi(['--provider', 'openai', '--model', 'gpt-4o', '--base-url', llm.openaiBaseUrl, '-m', 'make a file'], cliEnv(data.dir));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Pass --auto-run');
    expect(result.stdout).toContain('Not run.');
    expect(JSON.stringify(llm.requests.at(-1)?.body)).toContain('declined');
  });

  it('rejects unknown options with a pointer to --help', async () => {
    data = tempDir('oi-cli-');
    const result = await runOi(['--frobnicate'], cliEnv(data.dir));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown option '--frobnicate'.*\n.*oi --help/);
  });
});
