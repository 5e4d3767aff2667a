import { describe, expect, it } from 'vitest';
import { stdoutOf, useHarness } from '../../support/exec-harness';

// What JavaScript (Node) sessions do beyond the contract every persistent language keeps
// (session-behaviour.test.ts).

describe('javascript sessions', () => {
  const h = useHarness();

  it('keeps let bindings and functions between runs, with top-level await', async () => {
    await h.run('javascript', 'let n = 41;\nfunction inc(v) { return v + 1; }');
    const second = await h.run('node', 'await new Promise((r) => setTimeout(r, 20));\nconsole.log(inc(n));');
    // Numbers are coloured on a terminal; the model gets plain text.
    expect(second.forModel).toBe('42');
  });

  it('shows an object as a final expression the way Node inspects it', async () => {
    const result = await h.run('js', 'console.log("side");\n({ a: 1, b: [2, 3] })');
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('side\n');
    expect(result.outputs.find((o) => o.output_type === 'execute_result')).toBeDefined();
    expect(result.forModel).toMatch(/^side\n\{ a: 1, b: \[ 2, 3 \] \}/);
  });

  it('gives the file helpers relative to the workspace', async () => {
    const code = [
      'files.write("notes/a.txt", "alpha\\nneedle here\\n");',
      'files.write("notes/b.txt", "beta\\n");',
      'console.log(files.read("notes/a.txt").split("\\n")[0]);',
      'console.log(JSON.stringify(files.list("notes")));',
      'console.log(JSON.stringify(files.search("needle").map((m) => [m.path, m.line])));',
      'files.delete("notes/b.txt");',
      'console.log(JSON.stringify(files.list("notes")));',
    ].join('\n');
    const result = await h.run('js', code);
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('alpha\n["a.txt","b.txt"]\n[["notes/a.txt",2]]\n["a.txt"]\n');
  });
});
