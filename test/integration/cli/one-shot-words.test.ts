import { describe, expect, it } from 'vitest';
import { cliEnv, OiTerminal, runOi } from '../../support/cli-process';
import { useCliFixtures } from './support/oi-terminal-run';

// Issue 25 item 8: what a one-shot run says is true of a one-shot run.

const { setUp } = useCliFixtures();

describe('oi -m says what happened, in words that fit a one-shot run', () => {
  it('--json: a failed model call puts the error’s text in the result line', async () => {
    const { llm, dir, flags } = await setUp();
    llm.enqueue({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    const run = await runOi([...flags, '--json', '-m', 'hi'], cliEnv(dir));
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { name: string; payload: Record<string, unknown> };
    expect(result.name).toBe('result');
    expect(result.payload).toMatchObject({ status: 'failed', reason: 'error', answer: '' });
    expect(result.payload.error).toMatch(/refused the key/);
    // A terminal has no Settings screen: the place is said as a terminal user reaches it.
    expect(result.payload.error).toContain('when oi asks for it');
    expect(result.payload.error).not.toMatch(/(?<!app's )Settings →/);
  });

  it('shows an error’s last line without pointing at %traceback, which cannot be typed there', { timeout: 120_000 }, async () => {
    const { llm, dir, flags } = await setUp();
    const code = "def deep():\n    raise ValueError('went wrong deep down')\ndeep()";
    llm.enqueue(
      { kind: 'tool', calls: [{ id: 'fail', name: 'execute', arguments: { language: 'python', code } }] },
      { kind: 'text', text: 'Saw the error.' },
    );
    const run = await runOi([...flags, '-y', '-m', 'fail'], cliEnv(dir));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ValueError: went wrong deep down$/m);
    expect(run.stdout + run.stderr).not.toContain('%traceback');
  });

  it(
    'Ctrl-C: says the run and its session end now, never that the session keeps its state, and exits 130',
    { timeout: 120_000 },
    async () => {
      const { llm, dir, flags } = await setUp();
      llm.enqueue({
        kind: 'tool',
        calls: [{ id: 'wait', name: 'execute', arguments: { language: 'shell', code: 'echo started; sleep 60; echo never' } }],
      });
      const oi = new OiTerminal([...flags, '-y', '-m', 'wait a minute'], cliEnv(dir));
      try {
        // The program's own line (the code shown above it says "echo started" too).
        await oi.expect(/^started\r?$/m);
        oi.type('\x03');
        await oi.expect('Interrupted by the user; this oi -m run ends now, and the shell session with it.');
        expect(await oi.exited).toBe(130);
        expect(oi.output).not.toContain('keeps its state');
        expect(oi.output).not.toMatch(/^never\r?$/m);
      } finally {
        oi.kill();
      }
    },
  );
});
