import { readFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, type HarnessRun, startHarness, stderrOf, stdoutOf, streamTextOf, useHarness } from '../../support/exec-harness';
import { PERSISTENT_LANGUAGES } from '../../support/persistent-languages';

// One contract for every language the engine keeps a session for (docs/exec.md): state lives on
// between runs, errors fail the run and not the session, timeouts and interrupts keep the session,
// a dead session is reported and replaced, output arrives whole, in order and while the cell runs,
// and nothing in a cell's output can fake the end of a run. What a language does beyond this is in
// its own <language>-session.test.ts.

/** The live terminal's text, without the red that marks stderr there (docs/exec.md#stderr). */
function terminalText(result: HarnessRun): string {
  // eslint-disable-next-line no-control-regex
  return result.terminal.replace(/\r\n/g, '\n').replace(/\x1b\[(31|39)m/g, '');
}

/** Whether a signal is waiting to be handled by a process (Linux /proc: SigPnd and ShdPnd). */
async function signalPending(pid: number, signal: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const bit = 1n << BigInt(signal - 1);
  return [...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].some((m) => (BigInt(`0x${m[1]}`) & bit) !== 0n);
}

for (const lang of PERSISTENT_LANGUAGES) {
  describe.runIf(lang.available)(`${lang.name} sessions`, () => {
    let home: string | undefined;
    const run = (code: string, extra?: Parameters<Harness['run']>[2]) => h.run(lang.name, code, extra);
    /** Runs code that prints `started` and then blocks, aborting it once `started` reached the terminal. */
    const runAbortedOnceStarted = async (code: string) => {
      const controller = new AbortController();
      let seen = '';
      return run(`${lang.print('started')}\n${code}`, {
        signal: controller.signal,
        onTerminal: (text) => {
          seen += text;
          if (seen.includes('started')) controller.abort();
        },
      });
    };

    beforeAll(async () => {
      home = lang.ownHome ? await mkdtemp(join(tmpdir(), `oi-${lang.name}-home-`)) : undefined;
    });
    // Registered before the harness: after-hooks run last-registered first, so this runs after its close.
    afterAll(async () => {
      if (home) await rm(home, { recursive: true, force: true });
    });
    const h = useHarness(() => (home ? { baseEnv: { ...process.env, HOME: home, ZDOTDIR: undefined } } : {}));

    it('keeps variables and the working folder between runs', async () => {
      const first = await run(`${lang.enterSub}\n${lang.set('greeting', 'hello there')}`);
      expect(first.status, first.forModel).toBe('done');
      expect(first.cwd).toBe(join(h.workspace, 'sub'));
      const second = await run(lang.show('greeting'));
      expect(second.status, second.forModel).toBe('done');
      expect(stdoutOf(second)).toBe('hello there\n');
      expect(second.forModel).toBe('hello there');
      expect(second.cwd).toBe(join(h.workspace, 'sub'));
    });

    it('fails a run that raises an error and keeps the session', async () => {
      await run(lang.set('kept', 'yes'));
      const result = await run(lang.fail.code);
      expect(result.status).toBe('failed');
      if (lang.fail.ename) {
        expect(result.outputs.find((o) => o.output_type === 'error')).toMatchObject({ ename: lang.fail.ename, evalue: 'bad value' });
        expect(result.forModel).toContain('bad value');
      }
      // Where the language says where it was raised, the model reads the error and where, as a traceback shows them.
      if (lang.fail.trace) {
        expect(result.forModel).toContain(`${lang.fail.ename}: bad value`);
        expect(result.forModel).toContain(lang.fail.trace);
      }
      if (lang.fail.exitCode !== undefined) {
        expect(result.exitCode).toBe(lang.fail.exitCode);
        expect(result.forModel).toContain(`[exit code ${lang.fail.exitCode}]`);
      }
      expect(stdoutOf(await run(lang.show('kept')))).toBe('yes\n');
    });

    const lastValue = lang.lastValue;
    // Shells have no value of a last expression: no test rather than a skipped one.
    if (lastValue)
      it('shows the value of a final expression as a result', async () => {
        const { code, text } = lastValue;
        const result = await run(`${lang.print('side')}\n${code}`);
        expect(result.status, result.forModel).toBe('done');
        expect(result.outputs).toEqual([
          { output_type: 'stream', name: 'stdout', text: 'side\n' },
          { output_type: 'execute_result', execution_count: result.executionCount, data: { 'text/plain': text }, metadata: {} },
        ]);
        expect(result.forModel).toBe(`side\n${text}`);
      });

    it('passes Unicode through, and shows stdout, stderr and child processes in the order written', async () => {
      const code = [lang.print('héllo → 世界 🎉'), lang.printError('to stderr'), lang.child('from a child'), lang.print('after')].join(
        '\n',
      );
      const result = await run(code);
      expect(result.status, result.forModel).toBe('done');
      if (lang.name === 'bash' || lang.name === 'zsh') {
        // A shell's stderr has a terminal of its own (docs/exec.md#stderr): each stream keeps its
        // order, and across the two the order is the one main read them in.
        const text = terminalText(result);
        expect(text.replace('to stderr\n', '')).toBe('héllo → 世界 🎉\nfrom a child\nafter\n');
        expect(text).toContain('to stderr\n');
      } else expect(terminalText(result)).toBe('héllo → 世界 🎉\nto stderr\nfrom a child\nafter\n');
      expect(streamTextOf(result)).toContain('héllo → 世界 🎉\n');
      expect(stderrOf(result)).toBe('to stderr\n');
      expect(result.terminal).toContain('\x1b[31mto stderr');
      expect(result.forModel).toContain('from a child');
    });

    it('is not confused by code printing integration sequences, a fence, protocol text or no final newline', async () => {
      const forged = '\x1b]633;D;0\x07\x1b]633;P;OiFence=0123456789abcdef\x07\x1b]633;C\x07\x1b]633;A\x07';
      const result = await run([lang.write(forged), lang.print('{"type":"done","id":"x","ok":true}'), lang.write('no newline')].join('\n'));
      expect(result.status, result.forModel).toBe('done');
      expect(stdoutOf(result)).toBe('{"type":"done","id":"x","ok":true}\nno newline');
      expect(stdoutOf(await run(lang.print('next')))).toBe('next\n');
    });

    it('times out an endless loop, stops it and keeps the session', async () => {
      await run(lang.set('survivor', 'kept'));
      // The loop burns a core until the time-out: a short one (an abort at 0-20 ms is covered below).
      const result = await run(lang.busyLoop, { settings: { timeoutMs: 500 } });
      expect(result.status).toBe('timeout');
      expect(result.forModel).toContain('still running and keeps its state');
      expect(stdoutOf(await run(lang.show('survivor')))).toBe('kept\n');
    });

    it('interrupts a blocked run when its signal aborts, and keeps the session', async () => {
      await run(lang.set('state', 'kept'));
      const result = await runAbortedOnceStarted(`${lang.sleep30}\n${lang.print('not reached')}`);
      expect(result.status, result.forModel).toBe('interrupted');
      expect(result.forModel).toContain('still running and keeps its state');
      if (lang.interruptEname) expect(result.outputs.some((o) => o.output_type === 'error' && o.ename === lang.interruptEname)).toBe(true);
      // A shell may end the line the ^C cut short.
      expect(stdoutOf(result).trimEnd()).toBe('started');
      expect(stdoutOf(await run(lang.show('state')))).toBe('kept\n');
    });

    it('interrupts a run through the service, by conversation and language', async () => {
      let seen = '';
      const result = await run(`${lang.print('started')}\n${lang.sleep30}`, {
        onTerminal: (text) => {
          seen += text;
          if (seen.includes('started')) h.service.interrupt('conv-1', lang.name);
        },
      });
      expect(result.status, result.forModel).toBe('interrupted');
    });

    it('interrupts cleanly however early the abort comes', async () => {
      await run(lang.set('early', 'kept'));
      // A run that waits and one that computes: the aborts land before the code goes out, as the
      // session reads it, as the code starts, in a wait and in a busy loop (a JavaScript cell's
      // synchronous part, which only a signal reaches). How far each gets depends on the machine.
      for (const code of [lang.sleep30, lang.busyLoop]) {
        for (const delayMs of [0, 1, 2, 3, 5, 8, 10, 13, 20]) {
          const controller = new AbortController();
          setTimeout(() => controller.abort(), delayMs);
          const result = await run(code, { signal: controller.signal });
          const what = `${delayMs} ms into ${JSON.stringify(code)}`;
          expect(result.status, `${what}: ${result.forModel}`).toBe('interrupted');
          expect(result.forModel, what).not.toContain('state was lost');
          // Nothing of that interrupt is left over for the next run, which sees the state.
          const next = await run(lang.show('early'));
          expect(next.status, `after ${what}: ${next.forModel}`).toBe('done');
          expect(stdoutOf(next), `after ${what}`).toBe('kept\n');
        }
      }
      // 37 runs: on a loaded machine (load 30-46 on 2 cores) they took over the file's 60 s.
    }, 240_000);

    it('keeps the session and its state when a Ctrl-C reaches it between runs', async () => {
      await run(lang.set('between', 'kept'));
      const pid = Number(stdoutOf(await run(lang.pid)).trim());
      expect(pid).toBeGreaterThan(1);
      process.kill(pid, 'SIGINT');
      // The signal is handled before the next run is sent (or R, which holds it pending, meets it there).
      await vi.waitFor(async () => expect(await signalPending(pid, 2)).toBe(false), { timeout: 15_000, interval: 50 });
      const next = await run(lang.print('next'));
      expect(['done', 'failed', 'interrupted']).toContain(next.status);
      expect(next.forModel).not.toContain('state was lost');
      expect(stdoutOf(await run(lang.show('between')))).toBe('kept\n');
    });

    it('reports a killed session as died, one that exits by itself with its code, and starts a new one, without the old state, on the next run', async () => {
      const killed = { code: lang.killSelf, status: 'died', exitCode: undefined, says: /session died .*SIGKILL.*state was lost/ };
      for (const end of lang.exitSelf ? [killed, lang.exitSelf] : [killed]) {
        await run(lang.set('lost', '1'));
        const result = await run(end.code);
        expect(result.status, end.code).toBe(end.status);
        if (end.exitCode !== undefined) expect(result.exitCode).toBe(end.exitCode);
        expect(result.forModel).toMatch(end.says);
        const next = await run(lang.defined('lost'));
        expect(next.status, next.forModel).toBe('done');
        expect(stdoutOf(next)).toBe('no\n');
        expect(next.cwd).toBe(h.workspace);
      }
    });

    const echo = lang.echo;
    if (echo)
      it('keeps working when code turns the terminal’s echo back on', async () => {
        expect(stdoutOf(await run(`${echo.on}; ${lang.print('done')}`))).toBe('done\n');
        const next = await run(lang.print('next'));
        expect(stdoutOf(next)).toBe('next\n');
        expect(next.terminal).not.toContain('__oi');
        await run(echo.off);
      });

    it('runs queued runs of one session one after the other, in order', async () => {
      const results = await Promise.all([run(`${lang.nap}\n${lang.print('one')}`), run(lang.print('two'))]);
      expect(results.map(stdoutOf)).toEqual(['one\n', 'two\n']);
      expect(results[1].executionCount).toBe(results[0].executionCount + 1);
    });

    it('delivers 100 000 lines whole and in order, in batches of many lines', async () => {
      let batches = 0;
      const result = await run(`${lang.rows(100_000)}\n${lang.print('end')}`, {
        settings: { outputCapBytes: 8 * 1024 * 1024, timeoutMs: 120_000 },
        onTerminal: () => {
          batches++;
        },
      });
      expect(result.status, result.forModel).toBe('done');
      const lines = stdoutOf(result).split('\n');
      expect(lines).toHaveLength(100_002);
      expect(lines.slice(0, 100_000).every((line, i) => line === `row ${i}`)).toBe(true);
      expect(lines.slice(100_000)).toEqual(['end', '']);
      // Batches of many lines, not a message per line (the engine sends at most one every 16 ms;
      // this bound holds on the slowest machine).
      expect(batches).toBeLessThan(100_000 / 10);
    });

    it('stays interruptible while flooding the terminal, and answers afterwards', async () => {
      await run(lang.set('flooded', 'yes'));
      const controller = new AbortController();
      let seen = 0;
      const result = await run(lang.flood, {
        signal: controller.signal,
        settings: { outputCapBytes: 256 * 1024 },
        onTerminal: (text) => {
          seen += text.length;
          if (seen >= 100_000) controller.abort(); // once the flood is well under way
        },
      });
      // Whether the language's interrupt error shows depends on where the ^C lands (a runner blocked
      // on a full terminal is stopped by the engine instead); the blocked-run test checks it.
      expect(result.status, result.forModel).toBe('interrupted');
      expect(stdoutOf(result).startsWith('flood 1\nflood 2\n')).toBe(true);
      expect(stdoutOf(await run(lang.show('flooded')))).toBe('yes\n');
    });

    it('sends what a run printed while it goes on: a line, the tail of many lines, stderr', async () => {
      // Each run waits for a file the test writes only once the text reached the terminal: text held
      // back until the run ends would leave it waiting until its timeout.
      const cases: Array<[string, string]> = [
        ['line', lang.print('ready')],
        ['flood', `${lang.rows(5000)}\n${lang.print('ready')}`],
        ['stderr', lang.printError('ready')],
      ];
      for (const [name, print] of cases) {
        const flag = join(h.workspace, `go-${name}`);
        let seen = '';
        const result = await run(`${print}\n${lang.waitForFile(flag)}\n${lang.print('done')}`, {
          onTerminal: (text) => {
            seen += text;
            if (seen.includes('ready')) void writeFile(flag, '');
          },
        });
        expect(result.status, `${name}: ${result.forModel}`).toBe('done');
        expect(terminalText(result), name).toMatch(/ready\ndone\n$/);
      }
    });

    it('removes its temp folders when the engine is disposed', async () => {
      const other = await startHarness(home ? { baseEnv: { ...process.env, HOME: home, ZDOTDIR: undefined } } : {});
      try {
        expect((await other.run(lang.name, lang.print('x'))).status).toBe('done');
        expect((await readdir(other.tmpRoot)).length).toBeGreaterThan(0);
        await other.service.dispose();
        expect(await readdir(other.tmpRoot)).toEqual([]);
      } finally {
        await other.close();
      }
    });
  });
}
