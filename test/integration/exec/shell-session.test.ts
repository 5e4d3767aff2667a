import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, stdoutOf } from './helpers';

describe('shell sessions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('keeps cwd, variables, exports and functions between runs', async () => {
    const first = await h.run('bash', 'mkdir -p sub && cd sub; x=5; export GREETING=hello; twice() { echo "$1$1"; }');
    expect(first.status).toBe('done');
    expect(first.cwd).toBe(`${h.workspace}/sub`);
    const second = await h.run('sh', 'echo "$x $GREETING $(twice ab)"; pwd');
    expect(second.status).toBe('done');
    expect(stdoutOf(second)).toBe(`5 hello abab\n${h.workspace}/sub\n`);
    expect(second.forModel).toBe(`5 hello abab\n${h.workspace}/sub`);
  });

  it('reports a non-zero exit code as failed without echoing the command', async () => {
    const result = await h.run('bash', 'echo out; echo err >&2; (exit 3)');
    expect(result.status).toBe('failed');
    expect(result.exitCode).toBe(3);
    expect(stdoutOf(result)).toBe('out\nerr\n');
    expect(result.terminal).not.toContain('exit 3');
    expect(result.terminal).not.toContain('__oi');
    expect(result.forModel).toContain('[exit code 3]');
  });

  it('passes Unicode through and turns invalid UTF-8 into replacement characters', async () => {
    const result = await h.run('bash', String.raw`printf 'héllo → 世界 🎉\n'; printf 'bad \xff\xfe end\n'`);
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('héllo → 世界 🎉\nbad \ufffd\ufffd end\n');
  });

  it('is not confused by a program printing integration sequences or no final newline', async () => {
    const result = await h.run(
      'bash',
      String.raw`printf '\033]633;D;0\007\033]633;P;OiFence=deadbeef\007fake'; printf '\033]633;C\007'; printf 'no newline'`,
    );
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('fakeno newline');
    const next = await h.run('bash', 'echo still here');
    expect(stdoutOf(next)).toBe('still here\n');
  });

  it('keeps working when code tries to replace the prompt hook or turns echo back on', async () => {
    const hijack = await h.run('bash', 'PROMPT_COMMAND="echo hijacked"');
    expect(hijack.status).toBe('failed');
    expect(hijack.forModel).toContain('readonly variable');
    const echo = await h.run('bash', 'stty echo </dev/tty; echo done');
    expect(stdoutOf(echo)).toBe('done\n');
    const next = await h.run('bash', 'echo next');
    expect(stdoutOf(next)).toBe('next\n');
    expect(next.terminal).not.toContain('__oi');
    await h.run('bash', 'stty -echo </dev/tty');
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

  it('times out an endless command, interrupts it and keeps the session', async () => {
    await h.run('bash', 'kept=yes');
    const result = await h.run('bash', 'while true; do :; done', { settings: { timeoutMs: 1500 } });
    expect(result.status).toBe('timeout');
    expect(result.forModel).toContain('still running and keeps its state');
    const after = await h.run('bash', 'echo $kept');
    expect(stdoutOf(after)).toBe('yes\n');
  });

  it('interrupts a foreground program when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const result = await h.run('bash', 'sleep 30; echo not reached', { signal: controller.signal });
    expect(result.status, JSON.stringify(result)).toBe('interrupted');
    expect(stdoutOf(result)).not.toContain('not reached');
  });

  it('interrupts cleanly however early the abort comes', async () => {
    await h.run('bash', 'early=kept');
    for (const delayMs of [0, 1, 2, 3, 5, 8]) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), delayMs);
      const result = await h.run('bash', 'sleep 30', { signal: controller.signal });
      expect(result.status).toBe('interrupted');
      expect(result.forModel).not.toContain('state was lost');
    }
    expect(stdoutOf(await h.run('bash', 'echo $early'))).toBe('kept\n');
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

  it('reports a shell that exits and starts a new one on the next run', async () => {
    await h.run('bash', 'lost=1');
    const result = await h.run('bash', 'exit 4');
    expect(result.status).toBe('failed');
    expect(result.exitCode).toBe(4);
    expect(result.forModel).toContain('state was lost');
    const next = await h.run('bash', 'echo "[${lost-}]"; pwd');
    expect(next.status).toBe('done');
    expect(stdoutOf(next)).toBe(`[]\n${h.workspace}\n`);
  });

  it('reports a shell killed by a signal as died and restarts it', async () => {
    const result = await h.run('bash', 'kill -9 $$');
    expect(result.status).toBe('died');
    expect(result.forModel).toContain('The shell session died');
    expect(result.forModel).toContain('SIGKILL');
    const next = await h.run('bash', 'echo alive');
    expect(stdoutOf(next)).toBe('alive\n');
  });

  it('queues runs in the same session in order', async () => {
    const results = await Promise.all([h.run('bash', 'sleep 0.3; echo one'), h.run('bash', 'echo two')]);
    expect(results.map(stdoutOf)).toEqual(['one\n', 'two\n']);
    expect(results[1]!.executionCount).toBe(results[0]!.executionCount + 1);
  });

  it('cleans up its temp folders when disposed', async () => {
    const other = await startHarness();
    await other.run('bash', 'true');
    expect((await readdir(other.tmpRoot)).length).toBeGreaterThan(0);
    await other.service.dispose();
    expect(await readdir(other.tmpRoot)).toEqual([]);
    await other.close();
  });
});
