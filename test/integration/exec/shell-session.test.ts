import { describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { stderrOf, stdoutOf, useHarness } from '../../support/exec-harness';

// What bash sessions do beyond the contract every persistent language keeps (session-behaviour.test.ts).

describe('shell sessions', () => {
  const h = useHarness();

  it('keeps exports and functions between runs, under the name sh too', async () => {
    const first = await h.run('bash', 'x=5; export GREETING=hello; twice() { echo "$1$1"; }');
    expect(first.status).toBe('done');
    const second = await h.run('sh', 'echo "$x $GREETING $(twice ab) $(sh -c \'echo $GREETING\')"');
    expect(second.status).toBe('done');
    expect(stdoutOf(second)).toBe('5 hello abab hello\n');
  });

  it('reports a non-zero exit code as failed without echoing the command', async () => {
    const result = await h.run('bash', 'echo out; echo err >&2; (exit 3)');
    expect(result.status).toBe('failed');
    expect(result.exitCode).toBe(3);
    // stderr is kept apart (its own terminal), and no stray "exit" line.
    expect(stdoutOf(result)).toBe('out\n');
    expect(stderrOf(result)).toBe('err\n');
    expect(result.terminal).not.toContain('exit 3');
    expect(result.terminal).not.toContain('__oi');
    expect(result.forModel).toContain('[exit code 3]');
  });

  it('turns invalid UTF-8 into replacement characters', async () => {
    const result = await h.run('bash', String.raw`printf 'bad \xff\xfe end\n'`);
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('bad \ufffd\ufffd end\n');
  });

  it('keeps working when code tries to replace the prompt hook', async () => {
    const hijack = await h.run('bash', 'PROMPT_COMMAND="echo hijacked"');
    expect(hijack.status).toBe('failed');
    expect(hijack.forModel).toContain('readonly variable');
    const next = await h.run('bash', 'echo next');
    expect(stdoutOf(next)).toBe('next\n');
    expect(next.terminal).not.toContain('__oi');
  });

  it('runs multi-line code with here-documents and keeps stdin closed', async () => {
    const result = await h.run('bash', 'cat <<EOF\nline one\nline two\nEOF\nread -r answer || echo "no input"');
    expect(stdoutOf(result)).toBe('line one\nline two\nno input\n');
  });

  it('strips ANSI colours for the model but keeps them for the terminal', async () => {
    const result = await h.run('bash', String.raw`printf '\033[31mred\033[0m\n'; printf 'progress 10%%\rprogress 100%%\n'`);
    expect(result.terminal).toContain('\x1b[31mred');
    expect(result.forModel).toBe('red\nprogress 100%');
  });

  it('kills a program that ignores Ctrl-C and keeps the shell', async () => {
    await h.run('bash', 'survivor=1');
    const result = await h.run('bash', "python3 -c 'import signal,time; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(60)'", {
      settings: { timeoutMs: 1000 },
    });
    expect(result.status, JSON.stringify(result)).toBe('timeout');
    const after = await h.run('bash', 'echo $survivor');
    expect(stdoutOf(after)).toBe('1\n');
  });

  it('prepare starts the session the next run uses, running nothing', async () => {
    // A session's environment is fixed when it starts: the run sees the one prepare() started it with.
    const request = { conversationId: 'prepared', workspace: h.workspace, language: 'bash', code: '' };
    await h.service.prepare?.({ ...request, settings: { ...defaultSettings.exec, env: { MARK: 'from-prepare' } } });
    const run = await h.run('bash', 'echo "$MARK"', { conversationId: 'prepared', settings: { env: { MARK: 'from-run' } } });
    expect(stdoutOf(run)).toBe('from-prepare\n');
    // Twin: without prepare() the run starts its own session, with its own environment.
    const fresh = await h.run('bash', 'echo "$MARK"', { conversationId: 'not-prepared', settings: { env: { MARK: 'from-run' } } });
    expect(stdoutOf(fresh)).toBe('from-run\n');
  });
});
