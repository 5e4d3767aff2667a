import { describe, expect, it } from 'vitest';
import type { CellOutput } from '@contract';
import { installed } from '../../support/installed';
import { stderrOf, stdoutOf, useHarness } from '../../support/exec-harness';

// stderr stays stderr (docs/exec.md#stderr): in every language a cell's outputs keep what went to
// stderr as a stream named stderr, in its place among stdout. Shells get a second terminal for it,
// so programs still see a terminal on fd 2; runners mark it in the one terminal.

const SANDBOX = { enabled: true, chosen: true, allowNetwork: false, extraPaths: [], allowedHosts: [] };

/** `out:` / `err:` per saved stream output, in order. */
function streams(outputs: CellOutput[]): string[] {
  return outputs.flatMap((o) => (o.output_type === 'stream' ? [`${o.name === 'stdout' ? 'out' : 'err'}:${o.text}`] : []));
}

const shells = ['bash', ...(installed('zsh') ? ['zsh'] : [])];

describe('stderr in shell cells', () => {
  const h = useHarness();

  for (const shell of shells) {
    it(`${shell}: keeps stderr apart, in the order written, on a terminal of its own`, async () => {
      // Two terminals are read side by side, so only the order within each stream is certain here
      // (docs/exec.md#stderr); runners (below) keep the order across the two exactly.
      const result = await h.run(shell, 'echo one; echo two >&2; echo three; ls /no/such/oi-path; echo four');
      expect(result.status, result.forModel).toBe('done');
      expect(stdoutOf(result)).toBe('one\nthree\nfour\n');
      expect(stderrOf(result)).toMatch(/^two\nls: cannot access '\/no\/such\/oi-path': No such file or directory\n$/);
      const tty = await h.run(
        shell,
        '[ -t 1 ] && echo "stdout is a terminal"; [ -t 2 ] && echo "stderr is a terminal"; tty <&2 >/dev/null && echo "stderr is its own"',
      );
      expect(stdoutOf(tty)).toBe('stdout is a terminal\nstderr is a terminal\nstderr is its own\n');
      expect(result.forModel).toContain('two');
    });

    it(`${shell}: a failing command shows its error as stderr and no stray "exit" line`, async () => {
      const failed = await h.run(shell, 'echo before; cat /no/such/oi-file; (exit 3)');
      expect(failed.status).toBe('failed');
      expect(failed.exitCode).toBe(3);
      expect(streams(failed.outputs)).toEqual(['out:before\n', `err:cat: /no/such/oi-file: No such file or directory\n`]);
      // `exit 5` ends the shell itself: bash says "exit" on the way out, which is not the cell's output.
      const exited = await h.run(shell, 'echo bye >&2; exit 5');
      expect(exited.exitCode).toBe(5);
      expect(stderrOf(exited)).toMatch(new RegExp(`^bye\nThe ${shell === 'bash' ? 'shell' : 'zsh'} session exited with code 5`));
      expect(JSON.stringify(exited.outputs)).not.toMatch(/(^|\\n)exit\\n/);
      expect(exited.terminal).not.toMatch(/^exit\r?$/m);
      const next = await h.run(shell, 'echo back >&2');
      expect(stderrOf(next)).toBe('back\n');
    });

    it(`${shell}: text shaped like the stderr fence does not end the run or switch streams`, async () => {
      const forged = await h.run(
        shell,
        String.raw`printf '\033]633;P;OiErrFence=0000\007' >&2; printf '\033]633;P;OiStream=0000:stderr\007'; echo after`,
      );
      expect(forged.status).toBe('done');
      expect(streams(forged.outputs)).toEqual(['out:after\n']);
    });

    it(`${shell}: stderr written up to the end is the run's, even after a stderr fence the cell forged`, async () => {
      // The shell's own stderr fence is a claim the cell can print early (it knows its nonce); the
      // run's end waits for main's barrier through the stderr terminal instead, so the burst written
      // just before the end is all read into this run and none of it reaches the next.
      const burst = 300_000;
      const result = await h.run(
        shell,
        String.raw`printf '\033]633;P;OiErrFence=%s\007' "$__oi_nonce" >&2; head -c ${burst} /dev/zero | tr '\0' x >&2`,
      );
      expect(result.status, result.forModel).toBe('done');
      expect(stderrOf(result)).toBe('x'.repeat(burst));
      const next = await h.run(shell, 'echo next >&2');
      expect(stderrOf(next)).toBe('next\n');
    });
  }

  it.runIf(installed('bwrap'))('keeps stderr apart in the sandbox too', async () => {
    const result = await h.run('bash', 'echo out; echo err >&2; [ -t 2 ] && echo "stderr is a terminal"', {
      sandbox: SANDBOX,
      conversationId: 'sandboxed',
    });
    expect(result.status, result.forModel).toBe('done');
    expect(stdoutOf(result)).toBe('out\nstderr is a terminal\n');
    expect(stderrOf(result)).toBe('err\n');
  });
});

describe('stderr in runner cells', () => {
  const h = useHarness();

  const cases = [
    {
      language: 'python',
      code: 'import sys\nprint("a")\nprint("b", file=sys.stderr)\nprint("c")\n_ = sys.stderr.write("d\\n")',
      settings: {},
    },
    { language: 'js', code: 'console.log("a");\nconsole.error("b");\nconsole.log("c");\nvoid process.stderr.write("d\\n");', settings: {} },
    ...(installed('ruby')
      ? [{ language: 'ruby', code: 'puts "a"\n$stderr.puts "b"\nputs "c"\nSTDERR.write "d\\n"\nnil', settings: {} }]
      : []),
    ...(installed('Rscript') ? [{ language: 'r', code: 'cat("a\\n")\nmessage("b")\ncat("c\\n")\nmessage("d")', settings: {} }] : []),
  ];
  for (const c of cases) {
    it(`${c.language}: stderr kept as stderr, interleaved in order`, async () => {
      const result = await h.run(c.language, c.code);
      expect(result.status, result.forModel).toBe('done');
      expect(streams(result.outputs)).toEqual(['out:a\n', 'err:b\n', 'out:c\n', 'err:d\n']);
      // The live terminal shows stderr in red, the model gets plain text.
      expect(result.terminal).toContain('\x1b[31mb');
      expect(result.forModel).toBe('a\nb\nc\nd');
    });
  }

  it('python: a traceback is stderr-free (an error output), warnings are stderr', async () => {
    const result = await h.run('python', 'import warnings\nwarnings.warn("careful")\nprint("x")\n1/0');
    expect(result.status).toBe('failed');
    expect(stderrOf(result)).toContain('UserWarning: careful');
    expect(stdoutOf(result)).toBe('x\n');
    expect(result.outputs.at(-1)).toMatchObject({ output_type: 'error', ename: 'ZeroDivisionError' });
  });
});
