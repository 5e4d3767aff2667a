import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOT_PNG_BASE64, startHarness, stdoutOf, streamTextOf, useHarness } from '../../support/exec-harness';
import { installed } from '../../support/installed';

// What Ruby sessions do beyond the contract every persistent language keeps
// (session-behaviour.test.ts). .ci/run installs ruby; a machine without it skips these.
describe.runIf(installed('ruby'))('ruby sessions', () => {
  const h = useHarness();

  it('keeps methods and requires between runs, with string literals that are not frozen', async () => {
    const first = await h.run('ruby', 'require "set"\nx = 41\ngreeting = "hi"\ndef inc(v) = v + 1\nnil');
    expect(first.status, first.forModel).toBe('done');
    // String literals in cells are not frozen (the runner's own magic comment stays in its file).
    const second = await h.run('rb', 'puts inc(x), Set.new([1, 1]).size, greeting << "!"');
    expect(stdoutOf(second)).toBe('42\n1\nhi!\n');
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
});

describe.runIf(installed('ruby'))('ruby rich output', () => {
  const h = useHarness();
  beforeAll(async () => {
    await writeFile(join(h.workspace, 'dot.png'), Buffer.from(DOT_PNG_BASE64, 'base64'));
  });

  // What display() does in every language is runner-display.test.ts; these are Ruby's own.
  it('shows a rich last value as a rich execute_result, with the image size as metadata', async () => {
    const image = await h.run('ruby', 'Image("dot.png", width: 40)');
    expect(image.outputs).toEqual([
      {
        output_type: 'execute_result',
        execution_count: image.executionCount,
        data: { 'image/png': DOT_PNG_BASE64, 'text/plain': '<Image image/png, 70 bytes>' },
        metadata: { 'image/png': { width: 40 } },
      },
    ]);
    // A class of the user's own can describe its views.
    const own = await h.run('ruby', 'class Table\n  def to_mimebundle = { "text/html" => "<table></table>" }\nend\nTable.new');
    expect(own.outputs[0]).toMatchObject({ output_type: 'execute_result', data: { 'text/html': '<table></table>' } });
    expect(own.outputs[0]?.output_type === 'execute_result' && own.outputs[0].data['text/plain']).toMatch(/^#<Table/);
  });

  it('fails the cell, not the session, when display() is given something it cannot show', async () => {
    const text = await h.run('ruby', 'Image(__FILE__.b + "x")');
    expect(text.status).toBe('failed');
    expect((await h.run('ruby', '1 + 1')).forModel).toBe('2');
  });
});

describe.runIf(installed('ruby'))('ruby output order', () => {
  const h = useHarness();

  it('keeps the order of stdout, stderr, subprocesses and forks', async () => {
    const code = [
      'puts "a"',
      '$stderr.puts "b"',
      'system("echo c")',
      'print `echo d`',
      'STDOUT.puts "e"',
      'warn "f"',
      'pid = fork { puts "g" }',
      'Process.wait(pid)',
      '$stdout.sync = true',
      'printf("%s\\n", "h")',
      '$stdout << "i\\n"',
      'system("echo j", out: $stdout)',
      'puts "k"',
    ].join('\n');
    const result = await h.run('ruby', `${code}\nnil`);
    expect(result.status, result.forModel).toBe('done');
    expect(streamTextOf(result)).toBe('a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n');
    const tty = await h.run('ruby', '[$stdout.tty?, $stdout.fileno, $stderr.fileno]');
    expect(tty.forModel).toBe('[true, 1, 2]');
  });
});

describe.runIf(installed('ruby'))('ruby without its runner', () => {
  it('falls back to one process per cell and says that nothing is kept', async () => {
    const resources = await mkdtemp(join(tmpdir(), 'oi-no-runners-'));
    const h = await startHarness({ resourcesDir: resources });
    try {
      const first = await h.run('ruby', 'x = 1\nputs "ran"');
      expect(first.status).toBe('done');
      expect(first.forModel).toMatch(
        /^\[the persistent Ruby session could not start \(the Ruby runner is missing .*\); this cell ran as a separate Ruby process, so nothing is kept between cells\]\nran$/,
      );
      const second = await h.run('ruby', 'puts defined?(x).inspect');
      expect(stdoutOf(second)).toContain('nil\n');
    } finally {
      await h.close();
      await rm(resources, { recursive: true, force: true });
    }
  });
});
