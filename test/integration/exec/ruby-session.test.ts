import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, stdoutOf } from './helpers';
import { installed } from '../../support/installed';

// .ci/run installs ruby; a machine without it skips these rather than failing.
describe.runIf(installed('ruby'))('ruby sessions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('keeps local variables, methods, requires and cwd between runs', async () => {
    const first = await h.run('ruby', 'require "set"\nDir.mkdir("sub") unless Dir.exist?("sub")\nDir.chdir("sub")\nx = 41\ngreeting = "hi"\ndef inc(v) = v + 1\nnil');
    expect(first.status, first.forModel).toBe('done');
    expect(first.cwd).toBe(`${h.workspace}/sub`);
    // String literals in cells are not frozen (the runner's own magic comment stays in its file).
    const second = await h.run('rb', 'puts inc(x), Set.new([1, 1]).size, Dir.pwd, greeting << "!"');
    expect(stdoutOf(second)).toBe(`42\n1\n${h.workspace}/sub\nhi!\n`);
  });

  it('shows the value of the last expression, except nil and after a trailing ;', async () => {
    const result = await h.run('ruby', 'puts "side"\n{ a: [6 * 7, "x"] }');
    expect(result.status).toBe('done');
    expect(result.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'side\n' },
      { output_type: 'execute_result', execution_count: result.executionCount, data: { 'text/plain': '{:a=>[42, "x"]}' }, metadata: {} },
    ]);
    expect(result.forModel).toBe('side\n{:a=>[42, "x"]}');
    expect((await h.run('ruby', 'puts "only"')).outputs.map((o) => o.output_type)).toEqual(['stream']);
    expect((await h.run('ruby', 'y = 5;')).outputs).toEqual([]);
    expect((await h.run('ruby', '[_, 1]')).forModel).toBe('[{:a=>[42, "x"]}, 1]');
  });

  it('returns an exception with its class, message and backtrace, and the session lives on', async () => {
    const result = await h.run('ruby', 'def boom\n  raise ArgumentError, "bad value"\nend\nkept = 1\nboom');
    expect(result.status).toBe('failed');
    const error = result.outputs.find((o) => o.output_type === 'error');
    expect(error).toMatchObject({ output_type: 'error', ename: 'ArgumentError', evalue: 'bad value' });
    const traceback = error?.output_type === 'error' ? error.traceback.join('\n') : '';
    expect(traceback).toContain("in `boom': bad value (ArgumentError)");
    expect(traceback).not.toContain('oi_runner.rb');
    const next = await h.run('ruby', 'kept + 1');
    expect(next.forModel).toBe('2');
  });

  it('reports a syntax error as a failed run', async () => {
    const result = await h.run('ruby', 'def oops(');
    expect(result.status).toBe('failed');
    expect(result.outputs.find((o) => o.output_type === 'error')).toMatchObject({ ename: 'SyntaxError' });
  });

  it('streams stderr and Unicode to the terminal in order', async () => {
    const result = await h.run('ruby', 'puts "héllo → 世界 🎉"\n$stderr.puts "to stderr"\nprint "no newline"');
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('héllo → 世界 🎉\nto stderr\nno newline');
  });

  it('is not confused by code printing a fence or protocol text', async () => {
    const result = await h.run('ruby', 'print "\\e]633;P;OiFence=0123456789abcdef\\a"\nputs \'{"type":"done","id":"x","ok":true}\'');
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('{"type":"done","id":"x","ok":true}\n');
  });

  it('interrupts a sleeping cell and keeps the session and its state', async () => {
    await h.run('ruby', 'state = "kept"');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const result = await h.run('ruby', 'sleep 30\nputs "not reached"', { signal: controller.signal });
    expect(result.status).toBe('interrupted');
    expect(result.outputs.some((o) => o.output_type === 'error' && o.ename === 'Interrupt')).toBe(true);
    expect(stdoutOf(result)).not.toContain('not reached');
    const after = await h.run('ruby', 'state');
    expect(after.forModel).toBe('"kept"');
  });

  it('ignores a Ctrl-C that reaches it between cells', async () => {
    const pid = Number((await h.run('ruby', 'between = "kept"\nProcess.pid')).forModel);
    process.kill(pid, 'SIGINT');
    await new Promise((r) => setTimeout(r, 300));
    expect((await h.run('ruby', 'between')).forModel).toBe('"kept"');
  });

  it('times out an endless loop and keeps the session', async () => {
    const result = await h.run('ruby', 'loop { }', { settings: { timeoutMs: 1500 } });
    expect(result.status).toBe('timeout');
    expect(result.forModel).toContain('still running and keeps its state');
    expect((await h.run('ruby', '1 + 1')).forModel).toBe('2');
  });

  it('reports a killed runner as died and starts a new session on the next run', async () => {
    await h.run('ruby', 'lost = 1');
    const result = await h.run('ruby', "Process.kill('KILL', Process.pid)");
    expect(result.status).toBe('died');
    expect(result.forModel).toMatch(/The ruby session died .*state was lost/);
    const next = await h.run('ruby', 'defined?(lost).inspect');
    expect(next.status).toBe('done');
    expect(next.forModel).toBe('"nil"');
  });
});

describe.runIf(installed('ruby'))('ruby without its runner', () => {
  it('falls back to one process per cell and says that nothing is kept', async () => {
    const resources = await mkdtemp(join(tmpdir(), 'oi-no-runners-'));
    const h = await startHarness({ resourcesDir: resources });
    try {
      const first = await h.run('ruby', 'x = 1\nputs "ran"');
      expect(first.status).toBe('done');
      expect(first.forModel).toMatch(/^\[the persistent Ruby session could not start \(the Ruby runner is missing .*\); this cell ran as a separate Ruby process, so nothing is kept between cells\]\nran$/);
      const second = await h.run('ruby', 'puts defined?(x).inspect');
      expect(stdoutOf(second)).toContain('nil\n');
    } finally {
      await h.close();
      await rm(resources, { recursive: true, force: true });
    }
  });
});
