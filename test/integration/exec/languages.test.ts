import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, stdoutOf } from './helpers';

function installed(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('languages', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('lists every language with whether it is installed here', async () => {
    const list = await h.service.languages();
    expect(list.map((l) => l.name)).toEqual(['python', 'javascript', 'shell', 'powershell', 'r', 'ruby', 'applescript', 'java', 'html']);
    const shell = list.find((l) => l.name === 'shell');
    expect(shell).toMatchObject({ available: true, persistent: true });
    expect(shell?.version).toMatch(/^\d+\.\d+/);
    expect(list.find((l) => l.name === 'javascript')).toMatchObject({ available: true, version: process.versions.node });
  });

  it.skipIf(installed('Rscript'))('answers a missing runtime with what is available instead of failing', async () => {
    const result = await h.run('r', 'print(1)');
    expect(result.status).toBe('unavailable');
    expect(result.forModel).toMatch(/^R is not installed on this machine; available here: python \d+\.\d+, node \d+, bash \d+\.\d+/);
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
