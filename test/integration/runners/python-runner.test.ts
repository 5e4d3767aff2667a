import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Output, PYTHON_RUNNER, type RunOutcome, Runner, until } from '../../support/runner-harness';

// Debian's interpreter: it has python3-matplotlib and PIL; the python3 first on PATH may not.
const PYTHON = '/usr/bin/python3';

const resultText = (o: RunOutcome) => o.outputs.find((x) => x.output_type === 'execute_result')?.data?.['text/plain'];
const errorOf = (o: RunOutcome) => o.outputs.find((x) => x.output_type === 'error') as Required<Output> | undefined;
const displays = (o: RunOutcome) => o.outputs.filter((x) => x.output_type === 'display_data');
const isPng = (base64: unknown) => Buffer.from(String(base64), 'base64').subarray(0, 8).equals(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'));

// Everything here holds whether cells run through IPython's shell (this Python has IPython) or as
// the runner's own plain Python (OI_IPYTHON=0); where the two differ, each case says how.
describe.each([
  ['with IPython', true],
  ['without IPython', false],
] as const)('Python runner, %s', (_mode, ipython) => {
  let py: Runner;
  let count = 0;
  const run = (code: string) => py.run(code, { executionCount: ++count });

  beforeEach(async () => {
    count = 0;
    py = await Runner.start({ command: PYTHON, args: [PYTHON_RUNNER], env: ipython ? {} : { OI_IPYTHON: '0' } });
  });
  afterEach(async () => {
    await py.close();
  });

  it('keeps variables, functions and imports between runs', async () => {
    await run('import math\nx = 20\ndef double(v):\n    return v * 2');
    const later = await run('double(x) + math.floor(2.5)');
    expect(later.ok).toBe(true);
    expect(resultText(later)).toBe('42');
  });

  it('shows a final expression as execute_result with its execution count, unless silenced', async () => {
    const shown = await run('a = [1, 2]\na + [3]');
    expect(shown.outputs).toEqual([
      { output_type: 'execute_result', execution_count: 1, data: { 'text/plain': '[1, 2, 3]' }, metadata: {} },
    ]);
    expect((await run('a;')).outputs).toEqual([]);
    expect((await run('None')).outputs).toEqual([]);
    expect(resultText(await run('"text"'))).toBe("'text'");
  });

  it('sends stdout and stderr to the terminal in the order they were written', async () => {
    const o = await run('import sys\nprint("one")\nprint("two", file=sys.stderr)\nprint("three")');
    expect(o.plain).toBe('one\ntwo\nthree\n');
    expect(o.stderr).toBe('two\n');
    expect(o.outputs).toEqual([]);
  });

  it('reports an exception with ename, evalue and a traceback of the cell, and keeps going', async () => {
    const failed = await run('def check(v):\n    raise ValueError(f"bad value {v}")\n\ncheck(7)');
    expect(failed.ok).toBe(false);
    const error = errorOf(failed)!;
    expect(error.ename).toBe('ValueError');
    expect(error.evalue).toBe('bad value 7');
    const traceback = error.traceback.join('\n');
    expect(traceback).toContain('File "<cell 1>", line 4, in <module>');
    expect(traceback).toContain('raise ValueError(f"bad value {v}")');
    expect(traceback).not.toMatch(/oi_runner|oi_display/);
    expect((await run('1 + 1')).ok).toBe(true);
  });

  it('reports a syntax error with where it is', async () => {
    const o = await run('x = (1,\nprint(x');
    expect(o.ok).toBe(false);
    expect(errorOf(o)!.ename).toBe('SyntaxError');
    // IPython names a cell by its count, as Jupyter shows it; the plain runner by its file name.
    expect(errorOf(o)!.traceback.join('\n')).toMatch(ipython ? /Cell .*In \[1\].*line 2/s : /<cell 1>/);
  });

  it('captures matplotlib figures as PNG outputs, without savefig, and plt.show() neither blocks nor warns', async () => {
    const o = await run(
      'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()\nplt.plot([2, 1])\nplt.title("second")\nprint("drawn")',
    );
    expect(o.ok).toBe(true);
    expect(o.text).toBe('drawn\n'); // no "non-GUI backend" warning
    const figures = displays(o);
    expect(figures).toHaveLength(2); // show() emitted the first; the second was captured at the end
    for (const figure of figures) {
      expect(isPng(figure.data!['image/png'])).toBe(true);
      expect(figure.data!['text/plain']).toMatch(/^<Figure size/);
    }
    expect(resultText(await run('len(plt.get_fignums())'))).toBe('0'); // closed after the run
  });

  it('renders objects that describe themselves: HTML, Markdown, _repr_html_, PIL images', async () => {
    const o = await run(
      [
        'display(HTML("<b>bold</b>"), Markdown("# Title"))',
        'class Table:',
        '    def _repr_html_(self):',
        '        return "<table></table>"',
        'display(Table())',
        'from PIL import Image as PILImage',
        'PILImage.new("RGB", (3, 2), "red")',
      ].join('\n'),
    );
    const [html, markdown, table] = displays(o);
    expect(html!.data).toEqual({ 'text/html': '<b>bold</b>', 'text/plain': '<b>bold</b>' });
    expect(markdown!.data).toMatchObject({ 'text/markdown': '# Title' });
    expect(table!.data!['text/html']).toBe('<table></table>');
    const image = o.outputs.find((x) => x.output_type === 'execute_result')!;
    expect(isPng(image.data!['image/png'])).toBe(true);
  });

  it('interrupts a cell awaiting at top level', async () => {
    const running = run('import asyncio\nprint("waiting", flush=True)\nawait asyncio.sleep(60)');
    await until(() => py.unclaimedText.includes('waiting'));
    py.interrupt();
    const o = await running;
    expect(errorOf(o)!.ename).toBe('KeyboardInterrupt');
    expect(resultText(await run('await asyncio.sleep(0)\n"loop usable"'))).toBe("'loop usable'");
  });

  it('ignores SIGINT while idle', async () => {
    py.interrupt();
    // The signal is pending before the next line reaches the runner, so the runner has met it by the
    // time this cell answers: a cell that ran, and no exit, is the state after the SIGINT (no wait).
    expect((await run('1')).ok).toBe(true);
    expect(py.exit).toBeNull();
  });

  it('runs top-level await in an event loop that persists between cells', async () => {
    await run('import asyncio\nasync def twice(v):\n    await asyncio.sleep(0)\n    return v * 2');
    expect(resultText(await run('await twice(21)'))).toBe('42');
  });

  it('keeps its own names out of the namespace and runs cells as __main__', async () => {
    // A plain cell that arrives while IPython still loads runs without it: wait for the shell first.
    if (ipython) await run('get_ipython()');
    const o = await run('sorted(k for k in globals() if not k.startswith("_")), __name__');
    // IPython adds what a Jupyter cell finds too: In, Out, exit, quit, get_ipython (and _-names).
    // `computer` is ours on purpose, as `files` and `display` are (docs/computer-use.md#in-code).
    const names = ipython
      ? ['HTML', 'Image', 'In', 'Markdown', 'Out', 'computer', 'display', 'exit', 'files', 'get_ipython', 'quit']
      : ['HTML', 'Image', 'Markdown', 'computer', 'display', 'files'];
    expect(String(resultText(o)).replace(/\s+/g, ' ')).toBe(`([${names.map((n) => `'${n}'`).join(', ')}], '__main__')`);
  });

  it('ends a cell quietly on sys.exit(0) and keeps the session', async () => {
    const o = await run('import sys\nprint("leaving")\nsys.exit(0)');
    expect(o.ok).toBe(true);
    expect(o.outputs).toEqual([]);
    expect((await run('1')).ok).toBe(true);
  });

  it('imports a module that appeared between cells, even where its folder still looks unchanged', async () => {
    // A folder on sys.path whose listing the import system has cached (the failed import), then a
    // module written into it with the folder's time put back: what an install within the same tick
    // of the file system's clock looks like. The import system's cache hides it until it is dropped.
    // IPython's loader thread imports too: let it finish, so only the cells' imports are looked at.
    if (ipython) await run('get_ipython()');
    const missing = await run(
      "import os, sys\nd = os.path.abspath('late_modules')\nos.makedirs(d, exist_ok=True)\nsys.path.insert(0, d)\n" +
        "try:\n    import oi_late_one\nexcept ImportError:\n    print('missing')",
    );
    expect(missing.plain).toBe('missing\n');
    const plant = (name: string) =>
      `st = os.stat(d)\nwith open(os.path.join(d, '${name}.py'), 'w') as f:\n    f.write('VALUE = 7\\n')\nos.utime(d, ns=(st.st_atime_ns, st.st_mtime_ns))`;
    expect((await run(plant('oi_late_one'))).ok).toBe(true);
    const found = await run('import oi_late_one\nprint(oi_late_one.VALUE)');
    expect(found.plain).toBe('7\n');
    // The twin: within one cell, after an import that failed (the caches were dropped then), the
    // same kind of install stays hidden. Dropping them for every failed import would cost each of
    // the many optional imports a library tries; a program run in between (pip) drops them again.
    const hidden = await run(
      `try:\n    import oi_late_two\nexcept ImportError:\n    pass\n${plant('oi_late_two')}\n` +
        "try:\n    import oi_late_two\n    print('found')\nexcept ImportError:\n    print('hidden')",
    );
    expect(hidden.plain).toBe('hidden\n');
    const afterProgram = await run(
      `try:\n    import oi_late_three\nexcept ImportError:\n    pass\n${plant('oi_late_three')}\n` +
        "import subprocess\nsubprocess.run(['true'])\nimport oi_late_three\nprint(oi_late_three.VALUE)",
    );
    expect(afterProgram.plain).toBe('7\n');
  });

  it('shows output printed before a subprocess ahead of the subprocess output', async () => {
    const o = await run('import os, subprocess\nprint("before")\nos.system("echo middle")\nsubprocess.run(["echo", "end"])');
    expect(o.text).toBe('before\nmiddle\nend\n');
  });

  it('writes what a cell printed before os._exit, then dies', async () => {
    await expect(run('import os\nprint("last words")\nos._exit(3)')).rejects.toThrow(/runner exited/);
    expect(py.exit?.exitCode).toBe(3);
    expect(py.unclaimedText).toContain('last words');
  });

  it('prints 10 MB of lines to completion', async () => {
    const o = await run('for i in range(100_000):\n    print(f"{i:09d} " + "x" * 90)');
    expect(o.ok).toBe(true);
    // 100 characters and \n per line: the runner turns the terminal's output processing off itself
    // (termios, docs/exec.md), so the pty adds no \r.
    expect(o.bytes.length).toBe(100_000 * 101);
  });
});
