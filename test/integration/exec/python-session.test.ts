import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, stdoutOf } from './helpers';

describe('python sessions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('keeps variables, imports, functions and cwd between runs', async () => {
    const first = await h.run('python', 'import os, math\nos.makedirs("sub", exist_ok=True)\nos.chdir("sub")\nx = 41\ndef inc(v):\n    return v + 1');
    expect(first.status).toBe('done');
    expect(first.cwd).toBe(`${h.workspace}/sub`);
    const second = await h.run('py', 'print(inc(x), math.floor(2.5), os.getcwd())');
    expect(stdoutOf(second)).toBe(`42 2 ${h.workspace}/sub\n`);
  });

  it('shows the value of a final expression like a notebook', async () => {
    const result = await h.run('python', 'print("side")\n6 * 7');
    expect(result.status).toBe('done');
    expect(result.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'side\n' },
      { output_type: 'execute_result', execution_count: result.executionCount, data: { 'text/plain': '42' }, metadata: {} },
    ]);
    expect(result.forModel).toBe('side\n42');
  });

  it('returns the traceback of an exception and marks the run failed', async () => {
    const result = await h.run('python', 'def boom():\n    raise ValueError("bad value")\nboom()');
    expect(result.status).toBe('failed');
    const error = result.outputs.find((o) => o.output_type === 'error');
    expect(error).toMatchObject({ output_type: 'error', ename: 'ValueError', evalue: 'bad value' });
    expect(result.forModel).toContain('ValueError: bad value');
    expect(result.forModel).toContain('boom()');
  });

  it('streams stderr, Unicode and invalid UTF-8 to the terminal', async () => {
    const result = await h.run(
      'python',
      'import sys\nprint("héllo → 世界 🎉")\nprint("to stderr", file=sys.stderr)\nsys.stdout.flush()\nsys.stdout.buffer.write(b"bad \\xff\\xfe end\\n")',
    );
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toContain('héllo → 世界 🎉\n');
    expect(stdoutOf(result)).toContain('to stderr\n');
    expect(stdoutOf(result)).toContain('bad \ufffd\ufffd end\n');
  });

  it('is not confused by code printing the protocol, fences or no final newline', async () => {
    const code = [
      'import sys',
      'sys.stdout.write("\\x1b]633;P;OiFence=0123456789abcdef\\x07")',
      'print(\'{"type":"done","id":"x","ok":true}\')',
      'sys.stdout.write("no newline at the end")',
    ].join('\n');
    const result = await h.run('python', code);
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('{"type":"done","id":"x","ok":true}\nno newline at the end');
    const next = await h.run('python', 'print("next")');
    expect(stdoutOf(next)).toBe('next\n');
  });

  it('times out an endless loop with KeyboardInterrupt and keeps the session', async () => {
    await h.run('python', 'kept = "yes"');
    const result = await h.run('python', 'while True:\n    pass', { settings: { timeoutMs: 1500 } });
    expect(result.status).toBe('timeout');
    expect(result.outputs.some((o) => o.output_type === 'error' && o.ename === 'KeyboardInterrupt')).toBe(true);
    expect(result.forModel).toContain('still running and keeps its state');
    const after = await h.run('python', 'kept');
    expect(after.forModel).toBe("'yes'");
  });

  it('interrupts a running cell when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const result = await h.run('python', 'import time\ntime.sleep(30)\nprint("not reached")', { signal: controller.signal });
    expect(result.status).toBe('interrupted');
    expect(stdoutOf(result)).not.toContain('not reached');
  });

  it('interrupts a cell through the service by conversation', async () => {
    setTimeout(() => h.service.interrupt('conv-1', 'python'), 400);
    const result = await h.run('python', 'import time\ntime.sleep(30)');
    expect(result.status).toBe('interrupted');
  });

  it('reports os._exit as a died session and starts a new one on the next run', async () => {
    await h.run('python', 'lost = 1');
    const result = await h.run('python', 'import os\nos._exit(3)');
    expect(result.status).toBe('died');
    expect(result.exitCode).toBe(3);
    expect(result.forModel).toContain('The python session died (exit code 3): state was lost');
    const next = await h.run('python', '"lost" in globals()');
    expect(next.status).toBe('done');
    expect(next.forModel).toBe('False');
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
    const result = await h.run('python', 'import sys\nprint(sys.executable)\n"before" in globals()', { settings: { pythonPath: '/usr/bin/python3' } });
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
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

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
