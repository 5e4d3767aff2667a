import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionProcesses } from '../../../src-main/core/exec/process-tree';
import { type Harness, startHarness, stdoutOf } from './helpers';

const linux = process.platform === 'linux';
// As root, RLIMIT_NPROC binds nothing: only a pids cgroup contains a fork bomb. Without one, running
// a fork bomb would take the machine's process table, so the test is skipped.
const canContainForkBomb = linux && (process.getuid?.() !== 0 || existsSync('/sys/fs/cgroup/pids/cgroup.procs'));

describe('resource limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('reports the limits in force with every run', async () => {
    const result = await h.run('bash', 'true', { settings: { timeoutMs: 5000, memoryMb: 512, cpuSeconds: 30, maxProcesses: 64 } });
    expect(result.limits).toEqual({ timeoutMs: 5000, memoryMb: 512, cpuSeconds: 30, maxProcesses: 64, sandbox: null });
  });

  it.runIf(linux)('stops a Python memory bomb with MemoryError and keeps the session', async () => {
    await h.run('python', 'kept = 1', { settings: { memoryMb: 256 } });
    const result = await h.run('python', 'hog = bytearray(2 * 1024 ** 3)', { settings: { memoryMb: 256 } });
    expect(result.status).toBe('failed');
    expect(result.outputs.some((o) => o.output_type === 'error' && o.ename === 'MemoryError')).toBe(true);
    const after = await h.run('python', 'kept', { settings: { memoryMb: 256 } });
    expect(after.forModel).toBe('1');
  });

  it.runIf(linux)('stops a growing memory bomb in a shell command', async () => {
    const result = await h.run('bash', `python3 -c 'a = []\nwhile True: a.append(bytearray(10 ** 7))'`, { settings: { memoryMb: 300 } });
    expect(result.status).toBe('failed');
    expect(result.forModel).toContain('MemoryError');
  });

  it.runIf(linux)('kills a program that uses more CPU time than allowed', async () => {
    const started = Date.now();
    const result = await h.run('bash', `python3 -c 'while True: pass'`, { settings: { cpuSeconds: 1, timeoutMs: 30_000 } });
    expect(result.status).toBe('failed');
    // SIGXCPU: 128 + 24
    expect(result.exitCode).toBe(152);
    expect(Date.now() - started).toBeLessThan(10_000);
    const next = await h.run('bash', 'echo fine', { settings: { cpuSeconds: 1 } });
    expect(stdoutOf(next)).toBe('fine\n');
  });

  it.runIf(canContainForkBomb)('contains a fork bomb to the process limit and cleans it up on restart', async () => {
    const settings = { maxProcesses: 40, timeoutMs: 3000 };
    const bomb = await h.run('bash', 'echo $$ > shell.pid\nbomb() { bomb | bomb & }\nbomb', { settings });
    expect(['done', 'failed', 'timeout']).toContain(bomb.status);
    const shellPid = Number(await readFile(join(h.workspace, 'shell.pid'), 'utf8'));
    let most = 0;
    for (let i = 0; i < 10; i++) {
      most = Math.max(most, (await sessionProcesses(shellPid)).length);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(most).toBeGreaterThan(5);
    expect(most).toBeLessThanOrEqual(settings.maxProcesses + 2);
    await h.service.restart('conv-1', 'bash');
    expect((await sessionProcesses(shellPid)).length).toBe(0);
    const after = await h.run('bash', 'echo recovered', { settings });
    expect(stdoutOf(after)).toBe('recovered\n');
  });
});
