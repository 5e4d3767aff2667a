import { describe, expect, it } from 'vitest';
import { interruptOnceShown, stdoutOf, useHarness } from '../../support/exec-harness';

// What Python sessions do beyond the contract every persistent language keeps
// (session-behaviour.test.ts).

describe('python sessions', () => {
  const h = useHarness();

  it('keeps imports and functions between runs', async () => {
    await h.run('python', 'import math\ndef inc(v):\n    return v + 1');
    expect(stdoutOf(await h.run('py', 'print(inc(41), math.floor(2.5))'))).toBe('42 2\n');
  });

  it('reports an error whole when Ctrl-C keeps coming while it is being reported', async () => {
    // Main repeats Ctrl-C until a run ends; one landing inside IPython's traceback display used to
    // cut the report to a bare "KeyboardInterrupt" on stderr, losing the cell's error output.
    expect((await h.run('python', '%env OI_SLOW_REPORT=1')).status).toBe('done'); // IPython's shell runs the cells
    const code = [
      'import time',
      'class SlowToSay(Exception):',
      '    def __str__(self):',
      '        print("reporting", flush=True)',
      '        time.sleep(1)',
      '        return "slow to say"',
      'raise SlowToSay()',
    ].join('\n');
    const result = await h.run('python', code, interruptOnceShown('reporting'));
    expect(result.terminal).toContain('reporting');
    const errors = result.outputs.filter((o) => o.output_type === 'error');
    expect(
      errors.map((o) => (o.output_type === 'error' ? `${o.ename}: ${o.evalue}` : '')),
      result.forModel,
    ).toEqual(['SlowToSay: slow to say']);
    expect(stdoutOf(await h.run('python', 'print("still here")'))).toBe('still here\n');
  });

  it('turns invalid UTF-8 into replacement characters', async () => {
    const result = await h.run('python', 'import sys\nsys.stdout.flush()\nsys.stdout.buffer.write(b"bad \\xff\\xfe end\\n")');
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('bad \ufffd\ufffd end\n');
  });

  it('reports a segfault as died with the signal and restarts', async () => {
    const result = await h.run('python', 'import ctypes\nctypes.string_at(0)');
    expect(result.status).toBe('died');
    expect(result.forModel).toMatch(/SIGSEGV|signal 11/);
    const next = await h.run('python', '1 + 1');
    expect(next.forModel).toBe('2');
  });

  it('reports a missing interpreter as unavailable, naming what is installed', async () => {
    const result = await h.run('python', 'print(1)', { settings: { pythonPath: '/nonexistent/python3' } });
    expect(result.status).toBe('unavailable');
    expect(result.forModel).toMatch(/^Python is not installed on this machine; available here: .*node \d+.*bash \d/);
  });

  it('starts a new session, and says so, when the interpreter setting changes', async () => {
    await h.run('python', 'before = 1');
    const result = await h.run('python', 'import sys\nprint(sys.executable)\n"before" in globals()', {
      settings: { pythonPath: '/usr/bin/python3' },
    });
    expect(result.forModel).toMatch(/^Note: the python interpreter changed to \/usr\/bin\/python3; this run started a new session/);
    expect(result.forModel, result.forModel).toMatch(/\/usr\/bin\/python3\nFalse$/);
  });

  it('gives the file helpers relative to the workspace', async () => {
    const code = [
      'files.write("notes/a.txt", "alpha\\nneedle here\\n")',
      'files.write("notes/b.txt", "beta\\n")',
      'print(files.read("notes/a.txt").splitlines()[0])',
      'print(files.list("notes"))',
      'print([(m["path"], m["line"]) for m in files.search("needle")])',
      'files.delete("notes/b.txt")',
      'print(files.list("notes"))',
    ].join('\n');
    const result = await h.run('python', code);
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe("alpha\n['a.txt', 'b.txt']\n[('notes/a.txt', 2)]\n['a.txt']\n");
  });
});

describe('python rich output', () => {
  const h = useHarness();

  it('captures a matplotlib plot as a PNG output without savefig', async () => {
    const shown: string[] = [];
    const result = await h.run('python', 'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 4, 9])\nplt.title("squares")', {
      settings: { pythonPath: '/usr/bin/python3' },
      onOutput: (o) => shown.push(o.output_type),
    });
    expect(result.status).toBe('done');
    const png = result.outputs.find((o) => o.output_type === 'display_data' && typeof o.data['image/png'] === 'string');
    expect(png).toBeDefined();
    const data = png?.output_type === 'display_data' ? (png.data['image/png'] as string) : '';
    expect(Buffer.from(data, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(shown).toContain('display_data');
    expect(result.forModel).toContain('image/png');
  });
});
