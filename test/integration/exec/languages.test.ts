import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stdoutOf, useHarness } from '../../support/exec-harness';
import { installed } from '../../support/installed';

describe('languages', () => {
  const h = useHarness();

  it('lists every language with whether it is installed here', async () => {
    const list = await h.service.languages();
    expect(list.map((l) => l.name)).toEqual([
      'python',
      'javascript',
      'shell',
      'zsh',
      'powershell',
      'r',
      'ruby',
      'applescript',
      'java',
      'html',
    ]);
    const shell = list.find((l) => l.name === 'shell');
    expect(shell).toMatchObject({ available: true, persistent: true });
    expect(shell?.version).toMatch(/^\d+\.\d+/);
    expect(list.find((l) => l.name === 'javascript')).toMatchObject({ available: true, version: process.versions.node });
    for (const name of ['r', 'ruby']) expect(list.find((l) => l.name === name)).toMatchObject({ persistent: true });
  });

  it('answers a missing runtime with what is available instead of failing', async () => {
    // A PATH holding only python3, node and bash, so R is missing here even where it is installed.
    const bin = await mkdtemp(join(tmpdir(), 'oi-path-'));
    try {
      for (const name of ['python3', 'node', 'bash'])
        await symlink(execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim(), join(bin, name));
      const result = await h.run('r', 'print(1)', { settings: { env: { PATH: bin } } });
      expect(result.status).toBe('unavailable');
      expect(result.forModel).toMatch(/^R is not installed on this machine; available here: python \d+\.\d+, node \d+, bash \d+\.\d+/);
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });

  it('names the languages it knows when given an unknown one', async () => {
    const result = await h.run('cobol', 'DISPLAY "HI"');
    expect(result.status).toBe('unavailable');
    expect(result.forModel).toContain('Unknown language "cobol"');
    expect(result.forModel).toContain('python');
  });

  it('turns HTML into an output instead of running it', async () => {
    const result = await h.run('html', '<b>bold</b>');
    expect(result.status).toBe('done');
    expect(result.outputs[0]).toMatchObject({ output_type: 'display_data', data: { 'text/html': '<b>bold</b>' } });
  });

  it.runIf(installed('java'))('runs a single Java source file', async () => {
    const code = 'public class Hello { public static void main(String[] a) { System.out.println("hi from java"); System.exit(2); } }';
    const result = await h.run('java', code, { settings: { timeoutMs: 60_000 } });
    expect(stdoutOf(result)).toBe('hi from java\n');
    expect(result.status).toBe('failed');
    expect(result.exitCode).toBe(2);
  });
});
