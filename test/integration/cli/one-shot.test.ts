import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultSettings, eventSchemas, type AnyEvent } from '@contract';
import { describe, expect, it } from 'vitest';
import type { ScriptedLlm } from '../../fixtures/llm-server';
import { cliEnv, runOi } from '../../support/cli-process';
import { useCliRun } from '../../support/cli-run';

const cli = useCliRun();

/** A carriage return or an escape: what a file or pipe must never get from oi. */
// eslint-disable-next-line no-control-regex
const TERMINAL_BYTES = /[\r\x1b]/;

interface ResultLine {
  name: 'result';
  payload: { status: string; reason: string; exitCode: number; conversationId: string; answer: string };
}

/** Every line but the last is one of the contract's events (valid against its schema); the last is the result. */
function parseJsonLines(stdout: string): { events: AnyEvent[]; result: ResultLine } {
  const lines = stdout.split('\n').filter(Boolean);
  const result = JSON.parse(lines.pop() ?? '{}') as ResultLine;
  expect(result.name).toBe('result');
  const events = lines.map((line) => {
    const event = JSON.parse(line) as AnyEvent;
    expect(eventSchemas()[event.name].safeParse(event.payload).success).toBe(true);
    return event;
  });
  return { events, result };
}

// Both wire protocols, through the official SDKs, against the scripted server.
const PROTOCOLS = [
  { provider: 'openai', model: 'gpt-4o', base: (l: ScriptedLlm) => l.openaiBaseUrl, chat: '/v1/chat/completions' },
  { provider: 'anthropic', model: 'claude-sonnet-4-6', base: (l: ScriptedLlm) => l.anthropicBaseUrl, chat: '/v1/messages' },
] as const;

describe.each(PROTOCOLS)('oi -m over the $provider protocol', ({ provider, model, base, chat }) => {
  const flags = (l: ScriptedLlm) => ['--provider', provider, '--model', model, '--base-url', base(l)];
  const chatBodies = (l: ScriptedLlm) => l.requests.filter((r) => r.path === chat).map((r) => JSON.stringify(r.body));

  it('completes a tool-call turn with --json: one contract event per line, then the result', async () => {
    const { llm, dir } = await cli.start('oi-cli-');
    llm.enqueue(
      {
        kind: 'tool',
        text: 'Checking.',
        calls: [{ id: 'call_cli', name: 'execute', arguments: { language: 'shell', code: 'echo cli-$((20 + 22))' } }],
      },
      { kind: 'text', text: 'It printed cli-42.' },
    );
    const workspace = path.join(dir, 'ws');
    const result = await runOi(
      [...flags(llm), '--workspace', workspace, '--auto-run', '--no-sandbox', '--json', '-m', 'run something'],
      cliEnv(dir),
    );

    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    // --no-sandbox: said once, before anything runs, in the words of the desktop app's confirmation.
    expect(result.stderr.match(/auto-run is on/g)).toHaveLength(1);
    expect(result.stderr).toContain(
      "oi: auto-run is on: the model's code runs without asking. No sandbox: code will run as you, with access to your files",
    );
    const { events, result: end } = parseJsonLines(result.stdout);
    const names = events.map((e) => e.name);
    // The conversation's own changes (its title, its last activity) come as conversation.changed, the
    // person's message as the first item.
    expect(names.filter((n) => n !== 'conversation.changed')[0]).toBe('item.added');
    expect(names).toContain('conversation.changed');
    expect(names).toContain('cell.running');
    expect(names.at(-1)).toBe('turn.end');
    const done = events.find((e) => e.name === 'cell.done');
    expect(done?.name === 'cell.done' && done.payload.cell).toMatchObject({ status: 'done', approval: 'auto', toolCallId: 'call_cli' });
    expect(
      events
        .filter((e) => e.name === 'cell.terminal')
        .map((e) => (e.name === 'cell.terminal' ? e.payload.data : ''))
        .join(''),
    ).toContain('cli-42');
    expect(end.payload).toMatchObject({ status: 'done', reason: 'done', exitCode: 0, answer: 'It printed cli-42.' });
    // The conversation was saved where the desktop app would find it, under the id the result names.
    const saved = readdirSync(path.join(dir, 'conversations')).filter((n) => n.endsWith('.json'));
    expect(saved).toEqual([`${end.payload.conversationId}.json`]);
    expect(chatBodies(llm).at(-1)).toContain('cli-42');
  });

  it('reads a piped message from standard input, runs it with -y and finishes the turn before exiting', async () => {
    const { llm, dir } = await cli.start('oi-cli-');
    llm.enqueue(
      {
        kind: 'tool',
        calls: [{ id: 'p1', name: 'execute', arguments: { language: 'shell', code: 'echo from-the-pipe > piped.txt; echo wrote' } }],
      },
      { kind: 'text', text: 'Wrote piped.txt.' },
    );
    const here = path.join(dir, 'somewhere');
    mkdirSync(here);
    const result = await runOi([...flags(llm), '-y'], cliEnv(dir), { stdin: 'write a file\nplease\n', cwd: here });
    // The sandbox is on by default: nothing to warn about, and the cell still writes in its folder.
    expect(result.stderr).not.toContain('auto-run is on');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Wrote piped.txt.');
    // Code ran in the folder oi was started in.
    expect(readFileSync(path.join(here, 'piped.txt'), 'utf8')).toBe('from-the-pipe\n');
    expect(chatBodies(llm)[0]).toContain('write a file\\nplease');
  });
});

describe('oi without a terminal', () => {
  const flags = (l: ScriptedLlm) => ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', l.openaiBaseUrl];

  it('writes only text to a file or pipe: no CR, no escape codes (Node colours included), byte for byte', async () => {
    const { llm, dir } = await cli.start('oi-cli-');
    const code =
      "printf 'hello\\n'; printf '\\033[31mred\\033[0m\\n'; printf 'bar 10%%\\rbar 100%%\\n'; node -e 'console.log({ n: 1, s: \"x\" })'";
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'b1', name: 'execute', arguments: { language: 'shell', code } }] },
      { kind: 'text', text: 'All printed.' },
    );
    // FORCE_COLOR unset and NO_COLOR unset: stdout being a pipe is reason enough.
    const env = cliEnv(dir, { NO_COLOR: '' });
    delete env.FORCE_COLOR;
    const result = await runOi([...flags(llm), '-y', '-m', 'print things'], env);
    expect(result.code).toBe(0);
    const rule = (title: string) => title + '─'.repeat(48 - title.length);
    const expected = [
      rule('── shell '),
      code,
      rule(''),
      'hello',
      'red',
      'bar 100%',
      "{ n: 1, s: 'x' }",
      '✓ done in N s',
      'All printed.',
      '',
    ].join('\n');
    expect(result.stdout.replace(/done in \d+\.\d s/, 'done in N s')).toBe(expected);
    expect(result.stdout).not.toMatch(TERMINAL_BYTES);
    expect(result.stderr).not.toMatch(TERMINAL_BYTES);
  });

  it('sends errors to stderr, naming the URL that failed, without escape codes under NO_COLOR', async () => {
    const dir = cli.folder('oi-cli-');
    // Nothing listens on port 9: the first call fails to connect.
    const result = await runOi(
      ['--provider', 'openai', '--model', 'gpt-4o', '--base-url', 'http://127.0.0.1:9/v1', '-m', 'hi'],
      cliEnv(dir, { NO_COLOR: '1' }),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/error|could not reach/i);
    expect(result.stderr).toContain('http://127.0.0.1:9/v1');
    expect(result.stderr).toMatch(/could not reach/);
    expect(result.stderr).not.toMatch(TERMINAL_BYTES);
  });

  it('declines code when there is no terminal to ask and no -y, says so and exits 3', async () => {
    const { llm, dir } = await cli.start('oi-cli-');
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'c', name: 'execute', arguments: { language: 'shell', code: 'touch should-not-exist' } }] },
      { kind: 'text', text: 'Not run.' },
    );
    const result = await runOi([...flags(llm), '-m', 'make a file'], cliEnv(dir));
    expect(result.code).toBe(3);
    // Code asks first (no --auto-run): nothing to warn about (the data folder has no settings of its own: the defaults).
    expect(result.stderr).not.toContain('auto-run is on');
    expect(result.stderr).toMatch(/Declined 1 code run: no terminal to ask for approval\. Pass --auto-run \(-y\)/);
    expect(result.stdout).toContain('Not run.');
    // The model is told nobody could be asked, never that the person declined (issue 25, item 7).
    const toModel = JSON.stringify(llm.requests.at(-1)?.body);
    expect(toModel).toContain('Not run: nobody could be asked to approve it');
    expect(toModel).not.toContain('The user declined');
    expect(readdirSync(path.join(dir, 'here'))).toEqual([]);
  });

  it('does not warn about auto-run when the sandbox is on', async () => {
    const { llm, dir } = await cli.start('oi-cli-');
    const sandboxed = {
      ...defaultSettings,
      sandbox: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] },
    };
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(sandboxed));
    llm.enqueue({ kind: 'text', text: 'Hi.' });
    const on = await runOi([...flags(llm), '--auto-run', '-m', 'hi'], cliEnv(dir));
    expect(on.code).toBe(0);
    expect(on.stderr).not.toContain('auto-run is on');
  });

  it('exits non-zero when the turn fails, with the reason in the events and the result', async () => {
    const { llm, dir } = await cli.start('oi-cli-');
    llm.enqueue({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    const result = await runOi([...flags(llm), '--json', '-m', 'hi'], cliEnv(dir));
    expect(result.code).toBe(1);
    const { events, result: end } = parseJsonLines(result.stdout);
    expect(events.at(-1)?.name === 'turn.end' && events.at(-1)?.payload).toMatchObject({ reason: 'error' });
    expect(events.some((e) => e.name === 'notice' && /refused the key/.test(e.payload.item.text))).toBe(true);
    expect(end.payload).toMatchObject({ status: 'failed', reason: 'error', exitCode: 1 });
  });

  it('takes -m - and a prompt argument with piped input, and refuses an empty pipe', { timeout: 180_000 }, async () => {
    const { llm, dir } = await cli.start('oi-cli-');
    llm.enqueue({ kind: 'text', text: 'First.' }, { kind: 'text', text: 'Second.' });
    const dash = await runOi([...flags(llm), '-m', '-'], cliEnv(dir), { stdin: 'from stdin' });
    expect(dash.code).toBe(0);
    expect(dash.stdout).toContain('First.');
    const withPrompt = await runOi([...flags(llm), 'summarise this'], cliEnv(dir), { stdin: 'line 1\nline 2\n' });
    expect(withPrompt.code).toBe(0);
    expect(withPrompt.stdout).toContain('Second.');
    const users = llm.requests.map(
      (r) => (r.body as { messages?: Array<{ role: string; content: unknown }> }).messages?.find((m) => m.role === 'user')?.content,
    );
    expect(users).toEqual(['from stdin', 'summarise this\n\nline 1\nline 2\n']);

    const empty = await runOi([...flags(llm), '-y'], cliEnv(dir), { stdin: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/nothing to send: standard input was empty/);
    expect(readdirSync(path.join(dir, 'conversations')).filter((n) => n.endsWith('.json'))).toHaveLength(2);
  });

  it('rejects unknown options with a pointer to --help', async () => {
    const dir = cli.folder('oi-cli-');
    const result = await runOi(['--frobnicate'], cliEnv(dir));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown option '--frobnicate'.*\n.*oi --help/);
  });
});
