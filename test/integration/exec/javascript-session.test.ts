import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, stdoutOf } from './helpers';

describe('javascript sessions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('keeps variables, functions and cwd between runs, with top-level await', async () => {
    const first = await h.run('javascript', 'let n = 41;\nfunction inc(v) { return v + 1; }\nconst fs = await import("node:fs");\nfs.mkdirSync("sub", { recursive: true });\nprocess.chdir("sub");');
    expect(first.status).toBe('done');
    expect(first.cwd).toBe(`${h.workspace}/sub`);
    const second = await h.run('node', 'await new Promise((r) => setTimeout(r, 20));\nconsole.log(inc(n), process.cwd());');
    // Numbers are coloured on a terminal; the model gets plain text.
    expect(second.forModel).toBe(`42 ${h.workspace}/sub`);
  });

  it('shows the value of a final expression', async () => {
    const result = await h.run('js', 'console.log("side");\n({ a: 1, b: [2, 3] })');
    expect(result.status).toBe('done');
    expect(stdoutOf(result)).toBe('side\n');
    expect(result.outputs.find((o) => o.output_type === 'execute_result')).toBeDefined();
    expect(result.forModel).toMatch(/^side\n\{ a: 1, b: \[ 2, 3 \] \}/);
  });

  it('reports a thrown error with its stack and marks the run failed', async () => {
    const result = await h.run('js', 'function boom() { throw new TypeError("bad thing"); }\nboom();');
    expect(result.status).toBe('failed');
    expect(result.outputs.find((o) => o.output_type === 'error')).toMatchObject({ ename: 'TypeError', evalue: 'bad thing' });
    expect(result.forModel).toContain('TypeError: bad thing');
  });

  it('streams stderr and Unicode', async () => {
    const result = await h.run('js', 'console.error("to stderr");\nconsole.log("héllo → 世界 🎉");');
    expect(stdoutOf(result)).toContain('to stderr\n');
    expect(stdoutOf(result)).toContain('héllo → 世界 🎉\n');
  });

  it('times out a busy loop, interrupts it and keeps the session', async () => {
    await h.run('js', 'globalThis.kept = "yes";');
    const result = await h.run('js', 'while (true) {}', { settings: { timeoutMs: 1500 } });
    expect(result.status).toBe('timeout');
    const after = await h.run('js', 'kept');
    expect(after.forModel).toBe("'yes'");
  });

  it('reports a killed runner as a died session and starts a new one', async () => {
    await h.run('js', 'var lost = 1;');
    const result = await h.run('js', 'process.kill(process.pid, "SIGKILL")');
    expect(result.status).toBe('died');
    expect(result.forModel).toContain('The javascript session died (killed by signal SIGKILL): state was lost');
    const next = await h.run('js', 'typeof lost');
    expect(next.forModel).toBe("'undefined'");
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
