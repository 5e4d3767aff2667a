import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stdoutOf } from '../../support/exec-harness';
import { errorOf, expectMissingProgramLikeIPython, kinds, resultText, useMagicSessions } from './support/magic-sessions';

// IPython semantics in the Python session (resources/runners/python/oi_ipython.py, oi_shell.py), in a
// virtual environment that sees Debian's IPython. Without IPython: magics-without-ipython.test.ts.

const magic = useMagicSessions(['ipython']);

describe('notebook magics in the Python session, with IPython', () => {
  const py = magic.inSession('ipython');

  beforeAll(async () => {
    // The first cell that needs IPython waits for it to load; later ones find it ready.
    const first = await py('get_ipython().__class__.__name__');
    expect(first.forModel).toBe("'OiShell'");
  }, 120_000);

  it('runs %matplotlib inline and shows figures where plt.show() is called', async () => {
    const r = await py(
      '%matplotlib inline\nimport matplotlib.pyplot as plt\nprint("before")\nplt.plot([1, 2, 3])\nplt.show()\nprint("after")',
    );
    expect(r.status, r.forModel).toBe('done');
    expect(kinds(r.outputs)).toEqual(['stream:stdout', 'display_data:image/png+text/plain', 'stream:stdout']);
    const again = await py('%matplotlib qt');
    expect(again.status).toBe('done');
    expect(again.terminal).toContain('interactive windows are not available here; figures are shown inline');
  });

  it('runs the kernel magics a notebook has: %less and %more show a file, %autosave and %clear say they do nothing here', async () => {
    const r = await py(
      "with open('shown.txt', 'w') as f:\n    f.write('line one\\n')\n%less shown.txt\n%more shown.txt\n%autosave 60\n%clear",
    );
    expect(r.status, r.forModel).toBe('done');
    expect(stdoutOf(r)).toBe(
      'line one\nline one\n%autosave does nothing here: the app saves the conversation after every change.\n' +
        '%clear does nothing here: the app keeps what each cell showed.\n',
    );
  });

  it('runs !cmd with $name and {expression} expanded, and x = !cmd as a list of lines', async () => {
    const r = await py('word = "shell"\n!echo hello $word {1 + 1}');
    expect(stdoutOf(r)).toBe('hello shell 2\n');
    const listed = await py('open("listed.txt", "w").close()\nfound = !ls listed.txt\nfound');
    expect(resultText(listed.outputs)).toBe("['listed.txt']");
    expect((await py('!exit 3\n_exit_code')).forModel).toBe('3');
  });

  it('runs %pip with this Python, and the installed package imports in the next cell', async () => {
    await magic.expectPipOfThisPython('ipython', 'oi_tiny_ipy');
  });

  it('runs %cd and %env; the session keeps the directory and the variable', async () => {
    mkdirSync(path.join(magic.h.workspace, 'ipy-sub'), { recursive: true });
    const cd = await py('%cd ipy-sub');
    expect(stdoutOf(cd).trim()).toBe(path.join(magic.h.workspace, 'ipy-sub'));
    expect(cd.cwd).toBe(path.join(magic.h.workspace, 'ipy-sub'));
    await py(`%cd ${magic.h.workspace}`);
    const env = await py('%env GREETING=hi there\nimport os\nprint(os.environ["GREETING"])\n!echo $GREETING');
    expect(stdoutOf(env)).toBe('env: GREETING=hi there\nhi there\nhi there\n');
  });

  it('runs %%writefile, %%capture, %time, %%time and %timeit', async () => {
    const written = await py('%%writefile notes.txt\nfirst line\nsecond line');
    expect(stdoutOf(written)).toBe('Writing notes.txt\n');
    expect(readFileSync(path.join(magic.h.workspace, 'notes.txt'), 'utf8')).toBe('first line\nsecond line\n');

    const captured = await py('%%capture cap\nprint("hidden")\ndisplay(HTML("<b>also hidden</b>"))');
    expect(captured.outputs).toEqual([]);
    expect((await py('cap.stdout, len(cap.outputs)')).forModel).toBe("('hidden\\n', 1)");

    const timed = await py('%time sum(range(10))');
    expect(stdoutOf(timed)).toMatch(/^CPU times: .*\nWall time: .*\n$/);
    expect(resultText(timed.outputs)).toBe('45');
    const cellTimed = await py('%%time\ntotal = sum(range(100))\ntotal');
    expect(stdoutOf(cellTimed)).toMatch(/Wall time/);
    expect(resultText(cellTimed.outputs)).toBe('4950');
    expect(stdoutOf(await py('%timeit -n 3 -r 2 sum(range(10))'))).toMatch(/per loop \(mean ± std\. dev\. of 2 runs, 3 loops each\)/);
  });

  it("gives cells get_ipython() and shows a value's execution count, unless silenced with ;", async () => {
    const r = await py('get_ipython().run_line_magic("env", "FROM_API=1")\n6 * 7');
    expect(r.outputs.at(-1)).toEqual({
      output_type: 'execute_result',
      execution_count: r.executionCount,
      data: { 'text/plain': '42' },
      metadata: {},
    });
    expect((await py('6 * 7;')).outputs).toEqual([]);
    expect((await py('Out[' + String(r.executionCount) + ']')).forModel).toBe('42');
  });

  it("shows IPython.display objects and any object's _repr_*_ methods as rich outputs, in order", async () => {
    const code = [
      'from IPython.display import HTML, JSON, SVG, Image, Latex, Markdown, Math, display',
      'import base64',
      'PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==")',
      'print("first")',
      'display(HTML("<b>html</b>"), Markdown("*md*"))',
      'display(SVG(\'<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>\'))',
      'display(Image(data=PNG), JSON({"a": [1, None]}), Latex(r"$x^2$"), Math(r"\\alpha"))',
      'print("middle")',
      'class Everything:',
      '    def _repr_html_(self): return "<i>h</i>"',
      '    def _repr_markdown_(self): return "**m**"',
      '    def _repr_latex_(self): return "$y$"',
      '    def _repr_json_(self): return {"k": 1}',
      '    def _repr_png_(self): return PNG',
      '    def __repr__(self): return "Everything()"',
      'display(Everything())',
      'class Frame:',
      '    def _repr_html_(self): return "<table class=\\"dataframe\\"><tr><td>1</td></tr></table>"',
      '    def __repr__(self): return "   a\\n0  1"',
      'Frame()',
    ].join('\n');
    const r = await py(code);
    expect(r.status, r.forModel).toBe('done');
    expect(kinds(r.outputs)).toEqual([
      'stream:stdout',
      'display_data:text/html+text/plain',
      'display_data:text/markdown+text/plain',
      'display_data:image/svg+xml+text/plain',
      'display_data:image/png+text/plain',
      'display_data:application/json+text/plain',
      'display_data:text/latex+text/plain',
      'display_data:text/latex+text/plain',
      'stream:stdout',
      'display_data:application/json+image/png+text/html+text/latex+text/markdown+text/plain',
      'execute_result:text/html+text/plain',
    ]);
    expect(resultText(r.outputs)).toBe('   a\n0  1');
  });

  it('shows a real pandas DataFrame as Jupyter does: an HTML table with its text form', async () => {
    const r = await py('import pandas as pd\ndf = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})\ndisplay(df)\ndf');
    expect(r.status, r.forModel).toBe('done');
    expect(kinds(r.outputs)).toEqual(['display_data:text/html+text/plain', 'execute_result:text/html+text/plain']);
    const result = r.outputs.at(-1)!;
    expect(result.output_type === 'execute_result' && String(result.data['text/html'])).toContain('class="dataframe"');
    expect(resultText(r.outputs)).toBe('   a  b\n0  1  x\n1  2  y');
  });

  it('formats exceptions as IPython does; the model reads them without colour codes', async () => {
    const r = await py('def inner():\n    raise KeyError("missing")\ninner()');
    expect(r.status).toBe('failed');
    const error = errorOf(r.outputs)!;
    expect(error).toMatchObject({ ename: 'KeyError', evalue: "'missing'" });
    const traceback = error.traceback.join('\n');
    expect(traceback).toContain('\u001b['); // coloured, as Jupyter shows it
    expect(traceback).toMatch(/Traceback \(most recent call last\)/);
    expect(traceback).toMatch(/Cell .*In \[\d+\].*line 3/s);
    expect(r.forModel).not.toContain('\u001b[');
    expect(r.forModel).toContain('raise KeyError("missing")');
    const usage = await py('%no_such_magic');
    expect(usage.status).toBe('failed');
    expect(usage.terminal).toContain('UsageError: Line magic function `%no_such_magic` not found.');
  });

  it('runs %%bash, %%sh, %%script and %%perl through %%script semantics', async () => {
    expect(stdoutOf(await py('%%bash\necho "from bash $((6 * 7))"'))).toBe('from bash 42\n');
    expect(stdoutOf(await py('%%sh\necho from sh'))).toBe('from sh\n');
    expect(stdoutOf(await py('%%script bash\necho via script'))).toBe('via script\n');
    expect(stdoutOf(await py('%%perl\nprint "perl ", 6 * 7, "\\n";'))).toBe('perl 42\n');
    const failing = await py('%%bash\nexit 4');
    expect(failing.status).toBe('failed');
    expect(errorOf(failing.outputs)?.ename).toBe('CalledProcessError');
  });

  it('says "Couldn\'t find program" for a %%script program that is not here, and the cell succeeds, as IPython does', async () => {
    await expectMissingProgramLikeIPython(py, magic.h.tmpRoot, 'ipython');
  });

  it('runs what IPython loads but uses only later on first use; the modules are the real ones, also for threads using them at once', async () => {
    // oi_deferred_imports.py: a fresh session, whose first cell waits for IPython (it names get_ipython).
    const code = [
      'import sys, threading, types',
      'get_ipython()',
      "names = ['asyncio', 'logging.config', 'pexpect', 'pstats', 'pydoc', 'stack_data', 'urllib.request']",
      "print([n for n in names if type(sys.modules[n]).__name__ == '_DeferredModule'])",
      'barrier, errors = threading.Barrier(8), []',
      'def use():',
      '    barrier.wait()',
      '    try:',
      '        import pstats, pydoc, urllib.request',
      "        pstats.Stats, pydoc.render_doc, urllib.request.Request('http://example.invalid/').full_url",
      '    except BaseException as e:',
      '        errors.append(repr(e))',
      'threads = [threading.Thread(target=use) for _ in range(8)]',
      'for t in threads: t.start()',
      'for t in threads: t.join()',
      "print(errors, [type(sys.modules[n]) is types.ModuleType for n in ['pstats', 'pydoc', 'urllib.request']])",
      'import urllib.request, logging.config',
      'print(urllib.request.urlopen.__module__, logging.config.dictConfig.__module__)',
      '# IPython holds stand-ins for the names it imported with `from`: they call the real ones.',
      'from IPython.core.magics import code',
      "print(code.Request('http://example.invalid/a').full_url)",
    ].join('\n');
    const r = await py(code, {}, '-deferred');
    expect(r.status, r.forModel).toBe('done');
    expect(stdoutOf(r).split('\n')).toEqual([
      "['asyncio', 'logging.config', 'pexpect', 'pstats', 'pydoc', 'stack_data', 'urllib.request']",
      '[] [True, True, True]',
      'urllib.request logging.config',
      'http://example.invalid/a',
      '',
    ]);
    // asyncio (%%script) and stack_data (tracebacks) run when first needed.
    expect(stdoutOf(await py('%%bash\necho fine', {}, '-deferred'))).toBe('fine\n');
    const failed = await py('1/0', {}, '-deferred');
    expect(errorOf(failed.outputs)?.traceback.join('\n')).toMatch(/ZeroDivisionError/);
  });

  it('imports jedi in a cell, also as the first cell while IPython still loads without it', async () => {
    // IPython is loaded with jedi hidden (oi_ipython._hide_jedi); a cell naming jedi waits for the load.
    const first = await magic.h.run('python', 'import jedi\nprint(jedi.__name__)', {
      conversationId: 'magics-jedi',
      settings: { pythonPath: magic.pythons.ipython },
    });
    expect(stdoutOf(first)).toBe('jedi\n');
    expect((await py('import jedi, sys\nsys.modules["jedi"] is jedi')).forModel).toBe('True');
  });

  it('ends a cell quietly on sys.exit(0), fails it on sys.exit(1), and interrupts a cell with KeyboardInterrupt', async () => {
    const clean = await py('import sys\nprint("bye")\nsys.exit(0)');
    expect(clean.status).toBe('done');
    expect(clean.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: 'bye\n' }]);
    expect((await py('import sys\nsys.exit(1)')).status).toBe('failed');
    let seen = '';
    const running = magic.h.run('python', 'import time\nprint("working", flush=True)\ntime.sleep(60)', {
      conversationId: 'magics-ipython',
      settings: { pythonPath: magic.pythons.ipython },
      onTerminal: (text) => {
        seen += text;
      },
    });
    await expect.poll(() => seen.includes('working'), { timeout: 60_000 }).toBe(true);
    magic.h.service.interrupt('magics-ipython', 'python');
    const stopped = await running;
    expect(stopped.status).toBe('interrupted');
    expect(errorOf(stopped.outputs)?.ename).toBe('KeyboardInterrupt');
    expect((await py('1 + 1')).forModel).toBe('2');
  });
});
