import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PtyProcess } from '../../../src-main/core/exec/process/pty-process';

// At a run's end main reads the session's terminal itself (PtyProcess.drainOutput) instead of
// writing a token into it and waiting for the token to come back (session/run-end.ts). These tests
// write into a real terminal's device synchronously, as the session's program would, so the event
// loop has had no turn to read it, and look at what drainOutput() handed on before it returned.
// (No line ends: the terminal's output processing would make them CRLF.) One quiet process (`sleep`) holds the terminal for all of them: each test reads everything it
// wrote before it ends, so none leaves text for the next.

describe.skipIf(process.platform !== 'linux')('PtyProcess.drainOutput', () => {
  let pty: PtyProcess;
  let seen = '';
  let onText: ((text: string) => void) | null = null;

  beforeAll(() => {
    pty = new PtyProcess({ file: '/bin/sleep', args: ['600'], cwd: '/', env: { PATH: '/usr/bin:/bin' } });
    pty.onData((text) => {
      seen += text;
      onText?.(text);
    });
  });

  afterAll(async () => {
    pty.signal('SIGKILL');
    await pty.waitForExit();
  });

  /** Writes into the terminal's output the way a program on it does, without blocking. */
  function writeAsProgram(data: string | Buffer): void {
    const fd = openSync(pty.ttyPath as string, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    } finally {
      closeSync(fd);
    }
  }

  it('hands on everything written so far before it returns, without the event loop', async () => {
    seen = '';
    writeAsProgram('one;');
    writeAsProgram('two;');
    // The event loop has not run since: nothing was read the usual way.
    expect(seen).toBe('');
    expect(pty.drainOutput()).toBe(true);
    expect(seen).toBe('one;two;');
    // With nothing left it reads nothing, and later text still comes the usual way.
    expect(pty.drainOutput()).toBe(true);
    writeAsProgram('three;');
    await vi.waitFor(() => expect(seen).toBe('one;two;three;'), { timeout: 15_000, interval: 5 });
  });

  it('keeps a character split between a drain and the next read whole', () => {
    seen = '';
    const bytes = Buffer.from('é✓', 'utf8');
    writeAsProgram(bytes.subarray(0, 1));
    expect(pty.drainOutput()).toBe(true);
    expect(seen).toBe('');
    writeAsProgram(bytes.subarray(1));
    expect(pty.drainOutput()).toBe(true);
    expect(seen).toBe('é✓');
  });

  it('reads nothing while output is paused or being handed on, so nothing overtakes what came before', async () => {
    seen = '';
    pty.pause('test');
    writeAsProgram('held;');
    expect(pty.drainOutput()).toBe(false);
    expect(seen).toBe('');
    pty.resume('test');
    await vi.waitFor(() => expect(seen).toBe('held;'), { timeout: 15_000, interval: 5 });

    // A drain asked for from inside the listener (a run's end seen in the text being handed on)
    // would put the later text before the rest of the chunk: it is refused.
    const inside: boolean[] = [];
    onText = () => {
      onText = null;
      writeAsProgram('later;');
      inside.push(pty.drainOutput());
    };
    writeAsProgram('first;');
    await vi.waitFor(() => expect(inside).toEqual([false]), { timeout: 15_000, interval: 5 });
    expect(pty.drainOutput()).toBe(true);
    expect(seen).toBe('held;first;later;');
  });
});
