import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createPidsGroup } from '../../../src-main/core/exec/process/cgroup-pids';
import { stdoutOf, useHarness } from '../../support/exec-harness';

const linux = process.platform === 'linux';

/**
 * Whether the engine can cap a session's processes here. As root RLIMIT_NPROC binds nothing: only a
 * pids cgroup does (cgroup v1's pids hierarchy, or a v2 subtree with pids enabled), made per session
 * by cgroup-pids.ts, so the question is put to it. Without either, a fork bomb would take the
 * machine's process table, so the test is not run.
 */
async function canContainForkBomb(): Promise<boolean> {
  if (!linux) return false;
  if (process.getuid?.() !== 0) return true;
  const group = await createPidsGroup(`probe-${process.pid}`);
  await group?.remove();
  return group !== null;
}
const containable = await canContainForkBomb();

/** Live (not zombie) processes whose command line contains the marker. */
async function processesWithMarker(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'latin1').catch(() => '');
    if (!cmdline.includes(marker)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state && state !== 'Z') found.push(Number(entry));
  }
  return found;
}

describe('resource limits', () => {
  const h = useHarness();

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

  // A warm run whose limits are those already applied sends its code without asking prlimit
  // (LimitController.settled); a changed limit must still reach the live runner before its code runs.
  it.runIf(linux)('applies a changed memory limit to a warm Python session at its next run, and keeps it', async () => {
    const soft = 'import resource; print(resource.getrlimit(resource.RLIMIT_DATA)[0] // 2 ** 20)';
    expect((await h.run('python', soft, { settings: { memoryMb: 256 } })).forModel).toBe('256');
    expect((await h.run('python', soft, { settings: { memoryMb: 256 } })).forModel).toBe('256');
    expect((await h.run('python', soft, { settings: { memoryMb: 384 } })).forModel).toBe('384');
    expect((await h.run('python', soft, { settings: { memoryMb: 384 } })).forModel).toBe('384');
  });

  it.runIf(linux)('kills a program that uses more CPU time than allowed', async () => {
    const result = await h.run('bash', `python3 -c 'while True: pass'`, { settings: { cpuSeconds: 1, timeoutMs: 30_000 } });
    expect(result.status).toBe('failed');
    // SIGXCPU: 128 + 24
    expect(result.exitCode).toBe(152);
    const next = await h.run('bash', 'echo fine', { settings: { cpuSeconds: 1 } });
    expect(stdoutOf(next)).toBe('fine\n');
  });

  it.runIf(containable)('contains a fork bomb to the process limit and cleans it up', async () => {
    // The run's time limit leaves the bomb long enough to be seen going on a loaded machine.
    const settings = { maxProcesses: 40, timeoutMs: 10_000 };
    // Every bomb process is a fork of this session's bash, so its command line names the session's
    // private rc file: that finds exactly them (pids churn under a fork bomb and get reused).
    await h.run('bash', 'echo $$ > shell.pid', { settings });
    const shellPid = (await readFile(join(h.workspace, 'shell.pid'), 'utf8')).trim();
    const marker = /--rcfile\0([^\0]+)/.exec(await readFile(`/proc/${shellPid}/cmdline`, 'latin1'))?.[1] ?? 'no-marker';
    expect(marker).toMatch(/oi-shell-.*rc\.bash$/);
    const running = h.run('bash', 'bomb() { bomb | bomb & }\nbomb', { settings });
    // The bomb's processes outlive the run (they are background jobs): count them until the bomb is
    // seen going, then for as many samples again, taking the most seen at once.
    const counts: number[] = [];
    // vi.waitFor gives up after 1 s by default: too soon for a bomb to get going on a loaded machine.
    await vi.waitFor(
      async () => {
        counts.push((await processesWithMarker(marker)).length);
        expect(Math.max(...counts)).toBeGreaterThan(5);
      },
      { timeout: 15_000, interval: 50 },
    );
    for (let i = 0; i < 20; i++) counts.push((await processesWithMarker(marker)).length);
    const most = Math.max(...counts);
    const bomb = await running;
    // The bomb fills the quota; the shell itself may then be unable to fork and gets stopped.
    expect(['done', 'failed', 'timeout']).toContain(bomb.status);
    expect(most).toBeGreaterThan(5);
    expect(most).toBeLessThanOrEqual(settings.maxProcesses + 2);
    await h.service.restart('conv-1', 'bash');
    expect(await processesWithMarker(marker)).toEqual([]);
    const after = await h.run('bash', 'echo recovered', { settings });
    expect(stdoutOf(after)).toBe('recovered\n');
  });
});
