import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CellItem, Conversation } from '@contract';
import { exportNotebook, serializeNotebook } from '../../../src-main/core/notebook/ipynb-export';
import { importNotebook } from '../../../src-main/core/notebook/ipynb-import';
import { notebookTextOf } from '../../../src-main/core/notebook/notebook-files';
import { SYSTEM_PYTHON } from '../../support/jupyter-home';
import { expectExportsRerun } from '../../support/notebook-rerun';
import { startAgentHarness, type AgentHarness } from '../../support/agent-harness';
import { startAppUnderTest } from '../../support/app-under-test';
import { buildWheel, venvWithoutOwnPip } from '../../support/package-registries';

// Exports of live sessions re-run top to bottom under nbconvert --execute, without --allow-errors:
// agent turns with the scripted model and the real engine, each conversation exported and executed
// by Jupyter (test/support/notebook-rerun.ts, which the agent harness also runs for every agent test
// when it closes), stream outputs compared cell by cell.

const META = { appVersion: 'test', provider: 'test', model: 'test' };
const RESOURCES = path.resolve(import.meta.dirname, '../../../resources');
const run = promisify(execFile);
type Call = { language: string; code: string };
const calls = (...steps: Call[]) => [
  ...steps.map((step, i) => ({ kind: 'tool' as const, calls: [{ id: `call_${i}`, name: 'execute', arguments: step }] })),
  { kind: 'text' as const, text: 'Done.' },
];

const cellsOf = (conv: Conversation): CellItem[] => conv.items.filter((i): i is CellItem => i.kind === 'cell');
const sourceOf = (cell: { source: string | string[] }): string => (Array.isArray(cell.source) ? cell.source.join('') : cell.source);

describe('exports of live sessions re-run in Jupyter', () => {
  let h: AgentHarness | null = null;
  afterEach(async () => {
    // close() exports every conversation and runs it under nbconvert --execute (no --allow-errors).
    await h?.close();
    h = null;
  });

  async function session(text: string, steps: Call[], settings = {}) {
    h = await startAgentHarness({ settings: { autoRun: true, maxFailedAttempts: 10, ...settings } });
    h.llm.enqueue(...calls(...steps));
    const id = await h.newConversation();
    await h.send(id, text);
    return h.agent.snapshot(id);
  }

  it("carries each shell session's directory and exported variables into its cells, beside Python's own directory", async () => {
    const conv = await session('set up a project', [
      { language: 'shell', code: 'mkdir -p project/data && cd project' },
      { language: 'shell', code: 'echo hello > data/note.txt && ls data' },
      { language: 'shell', code: "export GREETING='hi there'; export TEMP_ONLY=1" },
      { language: 'shell', code: 'unset TEMP_ONLY; echo "$GREETING from $(basename "$PWD") ${TEMP_ONLY:-gone}"' },
      { language: 'python', code: 'print(open("project/data/note.txt").read().strip())' },
      { language: 'python', code: 'import os\nos.chdir("project")\nprint(sorted(os.listdir()))' },
      { language: 'shell', code: 'cat data/note.txt; echo "$GREETING"' },
      { language: 'python', code: 'print(open("data/note.txt").read().strip())' },
    ]);
    expect(cellsOf(conv).map((c) => c.status)).toEqual(cellsOf(conv).map(() => 'done'));
    expect(cellsOf(conv)[2]!.envChanges).toEqual({ GREETING: 'hi there', TEMP_ONLY: '1' });
    expect(cellsOf(conv)[3]!.envChanges).toEqual({ TEMP_ONLY: null });
    const nb = exportNotebook(conv, META);
    const shellSources = nb.cells.filter((c) => c.cell_type === 'code' && sourceOf(c).startsWith('%%bash')).map(sourceOf);
    expect(shellSources).toEqual([
      '%%bash\nmkdir -p project/data && cd project',
      '%%bash\ncd project\necho hello > data/note.txt && ls data',
      "%%bash\ncd project\nexport GREETING='hi there'; export TEMP_ONLY=1",
      '%%bash\ncd project\nexport GREETING=\'hi there\'\nexport TEMP_ONLY=1\nunset TEMP_ONLY; echo "$GREETING from $(basename "$PWD") ${TEMP_ONLY:-gone}"',
      // Python moved into project/ meanwhile: the shell's directory is now "." from there.
      '%%bash\nexport GREETING=\'hi there\'\nunset TEMP_ONLY\ncat data/note.txt; echo "$GREETING"',
    ]);
    // The preludes go away on import: the cells come back as the app ran them.
    const back = importNotebook(serializeNotebook(nb), { maxBytes: 1e8 });
    expect(back.conversationItems.filter((i): i is CellItem => i.kind === 'cell').map((c) => c.code)).toEqual(
      cellsOf(conv).map((c) => c.code),
    );
  });

  it('tags the failed attempts of an error loop raises-exception, so Jupyter goes on to the fix', async () => {
    const conv = await session('count the lines', [
      { language: 'python', code: 'print(undefined_name)' },
      { language: 'python', code: 'lines = ["a", "b"]\nprint(len(lines))' },
      { language: 'shell', code: 'cat no-such-file.txt' },
      { language: 'shell', code: 'printf "a\\nb\\n" > lines.txt && wc -l < lines.txt' },
    ]);
    expect(cellsOf(conv).map((c) => c.status)).toEqual(['failed', 'done', 'failed', 'done']);
    const code = exportNotebook(conv, META).cells.filter((c) => c.cell_type === 'code');
    expect(code.map((c) => c.metadata.tags ?? [])).toEqual([['raises-exception'], [], ['raises-exception'], []]);
  });

  it('skips, in Jupyter, a run that never finished here', async () => {
    const conv = await session(
      'wait',
      [
        { language: 'python', code: 'import time\ntime.sleep(60)' },
        { language: 'python', code: 'print("after the timeout")' },
      ],
      { exec: { timeoutMs: 1500 } },
    );
    expect(cellsOf(conv).map((c) => c.status)).toEqual(['timeout', 'done']);
    expect(
      exportNotebook(conv, META)
        .cells.filter((c) => c.cell_type === 'code')
        .map((c) => c.metadata.tags ?? []),
    ).toEqual([['skip-execution'], []]);
  });

  it("defines the app's Python helpers it uses (files, HTML), so the export runs under a plain kernel, and imports back without them", async () => {
    const conv = await session('keep a note', [
      { language: 'python', code: "files.write('notes/today.txt', 'buy milk')\nprint(files.list('notes'))" },
      { language: 'python', code: "print(files.read('notes/today.txt'))\nHTML('<b>done</b>')" },
    ]);
    expect(cellsOf(conv).map((c) => c.status)).toEqual(['done', 'done']);
    const { text } = notebookTextOf(conv, { ...META, resourcesDir: RESOURCES });
    const cells = (JSON.parse(text) as { cells: Array<{ cell_type: string; metadata: { oi?: { role: string } }; source: string[] }> })
      .cells;
    expect(cells[0]?.metadata.oi).toEqual({ role: 'helpers' });
    expect(sourceOf(cells[0]!)).toMatch(/^from IPython\.display import HTML$/m);
    expect(sourceOf(cells[0]!)).toMatch(/^files = Files\('\.'\)$/m);
    // Imported back, the helpers cell is not a conversation item: the same cells as before.
    const back = importNotebook(text, { maxBytes: 1e8 });
    expect(cellsOf({ ...conv, items: back.conversationItems }).map((c) => c.code)).toEqual(cellsOf(conv).map((c) => c.code));
    // close() runs the export under nbconvert --execute (no --allow-errors) and compares what it prints.
  });

  it("writes workspace paths relative to where each cell runs, and the user's messages visibly as theirs", async () => {
    h = await startAgentHarness({ settings: { autoRun: true } });
    const id = await h.newConversation();
    const workspace = (await h.agent.snapshot(id)).workspace;
    h.llm.enqueue(
      ...calls(
        {
          language: 'python',
          code: `import os\nos.makedirs("${workspace}/out", exist_ok=True)\nopen("${workspace}/out/result.txt", "w").write("42")`,
        },
        { language: 'shell', code: `cat ${workspace}/out/result.txt && echo` },
        // A cell that changes its own directory keeps its paths: relative ones would be read from elsewhere.
        { language: 'shell', code: `cd ${workspace}/out && cat ${workspace}/out/result.txt && echo` },
        { language: 'python', code: `print(open(os.path.join("${workspace}", "out", "result.txt")).read())` },
      ),
    );
    await h.send(id, 'Write 42 to out/result.txt.\nThen read it back.');
    const conv = await h.agent.snapshot(id);
    const nb = exportNotebook(conv, META);
    const text = serializeNotebook(nb);
    const codeCells = nb.cells.filter((c) => c.cell_type === 'code').map(sourceOf);
    expect(codeCells[0]).toContain('open("out/result.txt", "w")');
    expect(codeCells[0]).not.toContain(workspace);
    expect(codeCells[1]).toBe('%%bash\ncat out/result.txt && echo');
    expect(codeCells[2]).toBe(`%%bash\ncd ${workspace}/out && cat ${workspace}/out/result.txt && echo`);
    expect(codeCells[3]).toContain('os.path.join(".", "out", "result.txt")');
    expect(sourceOf(nb.cells[0]!)).toBe('**User:**\n\n> Write 42 to out/result.txt.\n> Then read it back.');
    // Read back, the app has the code it ran and the message as typed.
    const back = importNotebook(text, { maxBytes: 1e8 });
    expect(back.conversationItems.filter((i): i is CellItem => i.kind === 'cell').map((c) => c.code)).toEqual(
      cellsOf(conv).map((c) => c.code),
    );
    expect(back.conversationItems[0]).toMatchObject({ kind: 'user', text: 'Write 42 to out/result.txt.\nThen read it back.' });
  });
});

describe('an automatic install in an exported session', () => {
  let root: string;
  let wheels: string;
  let venv: string;
  let kernelVenv: string;
  let h: AgentHarness | null = null;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'oi-live-export-'));
    wheels = path.join(root, 'wheels');
    await buildWheel(wheels, 'oi_export_pkg', 77);
    venv = path.join(root, 'session-venv');
    kernelVenv = path.join(root, 'kernel-venv');
    // The session's Python and the kernel's: each a virtual environment pip may install into (the
    // session's with a pip of its own, as a person's venv has; the kernel's sees Debian's ipykernel and pip).
    await Promise.all([run(SYSTEM_PYTHON, ['-m', 'venv', venv]), venvWithoutOwnPip(kernelVenv, { systemSitePackages: true })]);
  }, 300_000);
  afterAll(async () => {
    await h?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('puts the install before the first cell that uses the package', async () => {
    // The app in browser mode, answering the page's requests: pip installs from a local wheel.
    const pip = { PIP_FIND_LINKS: wheels, PIP_NO_INDEX: '1', PIP_NO_CACHE_DIR: '1' };
    const aut = await startAppUnderTest({
      autoRun: true,
      exec: { timeoutMs: 60_000, pythonPath: path.join(venv, 'bin', 'python'), env: pip },
    });
    try {
      aut.llm.enqueue(
        ...calls(
          { language: 'python', code: 'print("start")' },
          { language: 'python', code: 'import oi_export_pkg\nprint("value", oi_export_pkg.VALUE)' },
        ),
      );
      const ctx = { transport: 'websocket' as const };
      const created = await aut.app.handlers['conversation.create']({}, ctx);
      await aut.app.handlers['chat.send']({ conversationId: created.id, text: 'use oi_export_pkg' }, ctx);
      await expect.poll(() => aut.llm.pending(), { timeout: 120_000 }).toBe(0);
      await aut.app.context.agent.idle(created.id);
      const conv = await aut.app.context.agent.snapshot(created.id);
      expect(conv.items.map((i) => (i.kind === 'notice' && i.install ? 'install' : i.kind))).toEqual([
        'user',
        'cell',
        'cell',
        'install',
        'assistant',
      ]);
      const sources = exportNotebook(conv, META).cells.map(sourceOf);
      expect(sources.slice(1, 4)).toEqual([
        'print("start")',
        '%pip install oi_export_pkg',
        'import oi_export_pkg\nprint("value", oi_export_pkg.VALUE)',
      ]);
      // Jupyter's kernel installs the package from the same local wheel, then the cell uses it.
      await expectExportsRerun([conv], { python: path.join(kernelVenv, 'bin', 'python'), env: pip });
    } finally {
      await aut.close();
    }
  });

  it('runs the export check on its own, failing a notebook that does not re-run', async () => {
    // The twin: the same kind of session with the install left where it happened fails in Jupyter.
    h = await startAgentHarness({ settings: { autoRun: true }, rerunExports: false });
    h.llm.enqueue(...calls({ language: 'python', code: 'print(missing_in_jupyter)' }));
    const id = await h.newConversation();
    await h.send(id, 'go');
    const conv = await h.agent.snapshot(id);
    const failed = cellsOf(conv)[0]!;
    expect(failed.status).toBe('failed');
    // Pretend it had succeeded here: Jupyter must then report it.
    const pretended = { ...conv, items: conv.items.map((i) => (i.id === failed.id ? { ...failed, status: 'done' as const } : i)) };
    await expect(expectExportsRerun([pretended])).rejects.toThrow(/nbconvert --execute stopped: .*NameError/s);
  });
});
