import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stdoutOf } from '../../support/exec-harness';
import { errorOf, expectMissingProgramLikeIPython, kinds, resultText, useMagicSessions } from './support/magic-sessions';

// Without IPython, the documented subset of magics (resources/runners/python/oi_magics.py) with a clear
// error for the rest: in a virtual environment with no IPython at all, and in Debian's Python told not to
// use its IPython (OI_IPYTHON=0). With IPython: ipython-magics.test.ts.

const magic = useMagicSessions(['bare']);

describe('notebook magics in the Python session, without IPython: the documented subset', () => {
  const bare = magic.inSession('bare');
  const off = magic.inSession('off');

  it('has really no IPython in the bare environment', async () => {
    const r = await bare('import importlib.util\nprint(importlib.util.find_spec("IPython"))');
    expect(stdoutOf(r)).toBe('None\n');
  });

  it('runs !cmd with $name and {expression} expanded, and x = !cmd as a list of lines', async () => {
    expect(stdoutOf(await bare('word = "shell"\n!echo hello $word {1 + 1}'))).toBe('hello shell 2\n');
    const listed = await bare('open("bare-listed.txt", "w").close()\nfound = !ls bare-listed.txt\nfound');
    expect(resultText(listed.outputs)).toBe("['bare-listed.txt']");
    // Inside an if block, and never inside a string or a call spread over lines.
    const nested = await bare('if True:\n    !echo nested\ntext = """\n!not a command\n%not a magic\n"""\nprint(len(text.splitlines()))');
    expect(stdoutOf(nested)).toBe('nested\n3\n');
  });

  it('runs %pip with this Python, and the installed package imports in the next cell', async () => {
    await magic.expectPipOfThisPython('bare', 'oi_tiny_bare');
  });

  it('runs %cd (and %cd -) and %env in its forms', async () => {
    mkdirSync(path.join(magic.h.workspace, 'bare-sub'), { recursive: true });
    const cd = await bare('%cd bare-sub');
    expect(stdoutOf(cd)).toBe(`${path.join(magic.h.workspace, 'bare-sub')}\n`);
    expect(cd.cwd).toBe(path.join(magic.h.workspace, 'bare-sub'));
    expect((await bare('%cd -')).cwd).toBe(magic.h.workspace);
    const env = await bare(
      '%env GREETING=hi there\n%env OTHER two\nimport os\nprint(os.environ["GREETING"], os.environ["OTHER"])\n!echo $GREETING',
    );
    expect(stdoutOf(env)).toBe('env: GREETING=hi there\nenv: OTHER=two\nhi there two\nhi there\n');
    expect((await bare('%env GREETING')).forModel).toBe("'hi there'");
  });

  it('runs %%bash, %%sh, %%writefile, %%script and %%perl', async () => {
    expect(stdoutOf(await bare('%%bash\necho "from bash $((6 * 7))"'))).toBe('from bash 42\n');
    expect(stdoutOf(await bare('%%sh\necho from sh'))).toBe('from sh\n');
    expect(stdoutOf(await bare('%%script bash\necho via script'))).toBe('via script\n');
    expect(stdoutOf(await bare('%%perl\nprint "perl ", 6 * 7, "\\n";'))).toBe('perl 42\n');
    const written = await bare('%%writefile bare-notes.txt\nfirst line');
    expect(stdoutOf(written)).toBe('Writing bare-notes.txt\n');
    expect(readFileSync(path.join(magic.h.workspace, 'bare-notes.txt'), 'utf8')).toBe('first line\n');
    expect(stdoutOf(await bare('%%writefile -a bare-notes.txt\nsecond line'))).toBe('Appending to bare-notes.txt\n');
    expect(readFileSync(path.join(magic.h.workspace, 'bare-notes.txt'), 'utf8')).toBe('first line\nsecond line\n');
    const failing = await bare('%%bash\nexit 4');
    expect(failing.status).toBe('failed');
    expect(errorOf(failing.outputs)?.ename).toBe('CalledProcessError');
  });

  it('says "Couldn\'t find program" for a %%script program that is not here, and the cell succeeds, as IPython does', async () => {
    await expectMissingProgramLikeIPython(bare, magic.h.tmpRoot, 'bare');
    await expectMissingProgramLikeIPython(off, magic.h.tmpRoot, 'off');
  });

  it('runs %time and %%time, showing the value', async () => {
    const timed = await bare('%time sum(range(10))');
    expect(stdoutOf(timed)).toMatch(/^CPU times: total: .*\nWall time: .*\n$/);
    expect(resultText(timed.outputs)).toBe('45');
    const assigned = await bare('%time squares = [i * i for i in range(5)]\nsquares');
    expect(resultText(assigned.outputs)).toBe('[0, 1, 4, 9, 16]');
    const cell = await bare('%%time\ntotal = sum(range(100))\ntotal');
    expect(stdoutOf(cell)).toMatch(/Wall time/);
    expect(resultText(cell.outputs)).toBe('4950');
  });

  it('takes %matplotlib as a no-op: figures still show', async () => {
    const r = await off('%matplotlib inline\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\nprint("after")');
    expect(r.status, r.forModel).toBe('done');
    expect(kinds(r.outputs)).toEqual(['display_data:image/png+text/plain', 'stream:stdout']);
  });

  it('names what needs IPython, says what to do, and runs none of the cell', async () => {
    for (const [code, magic] of [
      ['kept = 1\n%timeit pass', '%timeit'],
      ['%%capture cap\nkept = 1', '%%capture'],
      ['kept = 1\n%load_ext autoreload', '%load_ext'],
      ['%%javascript\nconsole.log(1)', '%%javascript'],
    ] as const) {
      for (const session of [bare, off]) {
        const r = await session(code);
        expect(r.status).toBe('failed');
        const error = errorOf(r.outputs)!;
        expect(error.ename).toBe('IPythonRequired');
        expect(error.evalue).toMatch(new RegExp(`^${magic} needs IPython, and this session's Python \\(.*\\) cannot import IPython\\.`));
        expect(error.evalue).toContain(
          'Without IPython the session runs %pip, !cmd, %cd, %env, %%bash, %%sh, %%script (and %%perl, %%ruby…), %%writefile, %matplotlib (no effect here), %time and %%time.',
        );
        expect(error.evalue).toMatch(/-m pip install ipython\) or choose a Python that has it \(Settings → Python\)\.$/);
        expect((await session('"kept" in globals()')).forModel).toBe('False');
      }
    }
  });

  it("shows rich outputs through the runner's own display protocol", async () => {
    const r = await bare('class T:\n    def _repr_html_(self): return "<b>t</b>"\nprint("a")\ndisplay(T())\nHTML("<i>x</i>")');
    expect(kinds(r.outputs)).toEqual(['stream:stdout', 'display_data:text/html+text/plain', 'execute_result:text/html+text/plain']);
  });
});
