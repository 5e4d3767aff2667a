import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src-main/core/exec';
import { endWithTest } from '../../support/test-children';
import { SANDBOX, startSandboxTarget, type SandboxTarget } from './support/sandbox-target';

// Issue 34: every code session inherited the terminal of each session started before it (node-pty's
// forkpty master had no FD_CLOEXEC and its child closed nothing), so a cell in conversation B could
// write `touch …\n` into conversation A's terminal and A's shell ran it — inside A's sandbox, with A's
// workspace writable. patches/node-pty+1.1.0.patch marks each master close-on-exec and closes every
// descriptor but the terminal in the child before exec. Here the attack through the real engine, with
// the sandbox on and off; the twin shows it working once B does hold A's master.

const OFF = { ...SANDBOX, enabled: false };

/** Python for conversation B: type a command into every terminal it holds besides its own. */
const typeIntoOthers = (command: string) =>
  [
    'import os',
    'own = os.readlink("/proc/self/fd/0")',
    'written = 0',
    'for name in os.listdir("/proc/self/fd"):',
    '    fd = int(name)',
    '    try:',
    '        target = os.readlink(f"/proc/self/fd/{fd}")',
    '    except OSError:',
    '        continue',
    '    if fd > 2 and (target == "/dev/ptmx" or (target.startswith("/dev/pts/") and target != own)):',
    `        os.write(fd, ${JSON.stringify(`${command}\n`)}.encode())`,
    '        written += 1',
    'print("written", written)',
  ].join('\n');

/** Python, JavaScript… print what each of their descriptors points at, from inside the session. */
const LIST_FDS: Record<string, string> = {
  python:
    'import os\nfor n in sorted(os.listdir("/proc/self/fd"), key=int):\n    print("fd", n, os.readlink(f"/proc/self/fd/{n}") if os.path.exists(f"/proc/self/fd/{n}") else "?")',
  javascript:
    'const fs = require("fs");\nfor (const n of fs.readdirSync("/proc/self/fd")) { try { console.log("fd", n, fs.readlinkSync(`/proc/self/fd/${n}`)); } catch {} }',
  shell: 'for f in /proc/$$/fd/*; do echo "fd ${f##*/} $(readlink "$f")"; done',
  ruby: 'Dir.children("/proc/self/fd").each { |n| puts "fd #{n} #{File.readlink("/proc/self/fd/#{n}") rescue "?"}" }',
  // R's channel is a pair of FIFOs it opens by name; zsh is the other shell.
  r: 'for (n in list.files("/proc/self/fd")) cat("fd", n, Sys.readlink(file.path("/proc/self/fd", n)), "\\n")',
  zsh: 'for f in /proc/$$/fd/*; do echo "fd ${f##*/} $(readlink "$f")"; done',
};

function stdout(result: RunResult): string {
  return result.outputs.map((o) => (o.output_type === 'stream' && o.name === 'stdout' ? o.text : '')).join('');
}

describe.each([
  ['on', SANDBOX],
  ['off', OFF],
] as const)('sessions of different conversations, sandbox %s', (_label, sandbox) => {
  let t: SandboxTarget;
  let a: string;
  let b: string;
  let c: string;
  beforeAll(async () => {
    t = await startSandboxTarget();
    [a, b, c] = await Promise.all([t.freshWorkspace(), t.freshWorkspace(), t.freshWorkspace()]);
  });
  afterAll(async () => t?.close());

  it("B's cell finds no terminal of A's to type into, and A's shell runs nothing of B's", async () => {
    const marker = join(a, 'typed-by-B');
    expect((await t.run('conv-A', 'shell', 'echo ready', { workspace: a, sandbox })).status).toBe('done');
    const attack = await t.run('conv-B', 'python', typeIntoOthers(`touch '${marker}'`), { workspace: b, sandbox });
    expect(attack.status, attack.forModel).toBe('done');
    expect(stdout(attack)).toBe('written 0\n');
    // A's shell reads its terminal again on its next run: nothing typed there to run.
    const again = await t.run('conv-A', 'shell', 'sleep 0.2; echo after', { workspace: a, sandbox });
    expect(stdout(again)).toContain('after');
    expect(existsSync(marker)).toBe(false);
  });

  it.each(Object.keys(LIST_FDS))("a %s session holds its own terminal and channel, nothing of another session's", async (language) => {
    // Two other conversations' sessions already running beside it.
    await t.run('conv-A', 'python', 'x = 1', { workspace: a, sandbox });
    await t.run('conv-C', 'shell', 'echo c', { workspace: c, sandbox });
    const listed = await t.run(`conv-B-${language}`, language, LIST_FDS[language]!, { workspace: b, sandbox });
    expect(listed.status, listed.forModel).toBe('done');
    const fds = stdout(listed)
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line.startsWith('fd '))
      .map((line) => line.split(' ').slice(1).join(' '));
    // Its own terminals are what its stdin, stdout and stderr are (a shell's stderr has one of its own).
    const own = new Set(fds.filter((f) => /^[012] /.test(f)).map((f) => f.slice(2)));
    expect(
      [...own].every((to) => /^\/dev\/(pts\/\d+|console)$/.test(to)),
      JSON.stringify([...own]),
    ).toBe(true);
    const targets = fds.map((f) => f.slice(f.indexOf(' ') + 1));
    expect(targets).not.toContain('/dev/ptmx');
    expect(targets.filter((to) => to.startsWith('/dev/pts/') && !own.has(to))).toEqual([]);
    expect(targets.filter((to) => to.startsWith(a) || to.startsWith(c))).toEqual([]);
  });
});

describe('children of the app that are not a session', () => {
  it('hold no terminal of a running session', async () => {
    const t = await startSandboxTarget();
    try {
      const ws = await t.freshWorkspace();
      await t.run('conv-A', 'shell', 'echo ready', { workspace: ws, sandbox: OFF });
      await t.run('conv-A', 'python', 'x = 1', { workspace: ws, sandbox: OFF });
      // What the app starts beside its sessions (an MCP server, git, a probe) is started from this
      // process, which holds the sessions' terminals.
      const child = spawn('/bin/sleep', ['30'], { stdio: 'ignore' });
      endWithTest(child);
      const targets = readdirSync(`/proc/${child.pid}/fd`).flatMap((n) => {
        try {
          return [readlinkSync(`/proc/${child.pid}/fd/${n}`)];
        } catch {
          return [];
        }
      });
      expect(targets.filter((to) => to === '/dev/ptmx' || to.startsWith('/dev/pts/'))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('twin: a session that does hold another terminal', () => {
  it('types into that terminal, and its shell runs what was typed (what inherited descriptors allowed)', async () => {
    const t = await startSandboxTarget();
    try {
      const ws = await t.freshWorkspace();
      const marker = join(ws, 'typed-by-twin');
      const shell = pty.spawn('/bin/bash', ['--norc', '--noprofile'], { cwd: ws, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
      endWithTest(shell, { group: true, exited: (listener) => void shell.onExit(listener) });
      // The master handed on as descriptor 3, as every later session used to inherit it.
      const master = (shell as unknown as { _fd: number })._fd;
      const b = spawn('python3', ['-c', typeIntoOthers(`touch '${marker}'`)], { stdio: ['ignore', 'pipe', 'inherit', master] });
      endWithTest(b);
      let out = '';
      b.stdout?.on('data', (d: Buffer) => (out += d.toString()));
      await new Promise((resolve) => b.on('close', resolve));
      expect(out).toBe('written 1\n');
      await expect.poll(() => existsSync(marker), { timeout: 20_000 }).toBe(true);
      shell.kill();
    } finally {
      await t.close();
    }
  });
});
