import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellItem, Conversation } from '@contract';
import { bubblewrapArgs } from '../../../src-main/core/exec/sandbox/bubblewrap-args';
import { planSandbox } from '../../../src-main/core/exec/sandbox/sandbox-plan';
import { startAppUnderTest, type AppUnderTest } from '../../support/app-under-test';
import { sandboxVisibleScratch } from '../../support/sandbox-visible-scratch';
import { plantedProgram, plantWith, SANDBOX, startSandboxTarget, stdoutOf, type SandboxTarget } from './support/sandbox-target';
import { notebookJson } from '../../support/notebook-json';

// Issue 17, finding 11: every protection of the sandbox has a test that fails when it is removed.
// Each bubblewrap flag gets the attack it stops, run through the engine (which must stop it) and,
// as the twin, through bubblewrap started with the engine's own arguments minus that one flag (which
// must let it through). Then the whole sandbox through a full agent turn of the real app: the
// model's cell plants an interpreter, the next cell would make the app run it.

const BWRAP = '/usr/bin/bwrap';

function run(file: string, args: string[]): Promise<string> {
  return new Promise((done) => execFile(file, args, { timeout: 30_000 }, (_err, stdout, stderr) => done(`${stdout}${stderr}`)));
}

describe('each bubblewrap protection stops its attack (issue 17 #11)', () => {
  let t: SandboxTarget;
  beforeAll(async () => {
    t = await startSandboxTarget();
  });
  afterAll(async () => t?.close());

  /** `code` run by sh under bubblewrap with the engine's arguments for this workspace, minus `flag`. */
  async function withoutFlag(flag: string, code: string): Promise<string> {
    const privateDir = await mkdtemp(join(t.tmpRoot, 'twin-'));
    const plan = planSandbox({ settings: SANDBOX, workspace: t.workspace, privateDir, home: t.home });
    const args = bubblewrapArgs(plan, { file: '/bin/sh', args: ['-c', code] }, []);
    const at = args.indexOf(flag);
    expect(at, `${flag} is in the engine's arguments`).toBeGreaterThan(-1);
    args.splice(at, flag === '--cap-drop' ? 2 : 1);
    return run(BWRAP, args);
  }

  it('--cap-drop ALL: root in the sandbox cannot remount the system read-write and write outside', async () => {
    // A file outside everything the sandbox may write, in a folder it can see (not under /tmp or the
    // home, which it hides: the repository's test-results/, or a system folder when the clone is there).
    // Without one (not root, the clone hidden), the twin below does not look for the file anyway.
    const scratch = sandboxVisibleScratch() ?? resolve(import.meta.dirname, '../../../test-results');
    const victim = join(scratch, `cap-victim-${process.pid}`);
    rmSync(victim, { force: true });
    const attack = `grep CapEff /proc/self/status; mount -o remount,rw / 2>&1; echo escaped > ${victim} 2>&1 || echo refused`;
    const result = await t.run('caps', 'shell', attack, { sandbox: SANDBOX });
    expect(stdoutOf(result)).toMatch(/CapEff:\s+0+\b/);
    expect(existsSync(victim)).toBe(false);

    const twin = await withoutFlag('--cap-drop', attack);
    try {
      expect(twin).not.toMatch(/CapEff:\s+0+\b/);
      // Without the flag, the sandbox's root keeps its capabilities (as root, or in its user namespace).
      if (process.getuid?.() === 0) expect(existsSync(victim)).toBe(true);
    } finally {
      rmSync(victim, { force: true });
    }
  });

  it("--unshare-ipc: the sandbox cannot attach to the host's System V shared memory", async () => {
    // The host process creates a segment holding a secret and keeps it until it is killed.
    const key = 0x0150_0000 + (process.pid % 0xffff);
    const host: ChildProcess = spawn('/usr/bin/python3', ['-c', SHM_HOST, String(key)], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((ready) => host.stdout?.once('data', () => ready()));
      const result = await t.run('ipc', 'python', SHM_READER(key), { sandbox: SANDBOX });
      expect(stdoutOf(result)).toContain('no segment');
      expect(stdoutOf(result)).not.toContain('host secret');

      const twin = await withoutFlag('--unshare-ipc', `/usr/bin/python3 -c '${SHM_READER(key).replace(/'/g, "'\\''")}'`);
      expect(twin).toContain('read: host secret');
    } finally {
      host.kill('SIGTERM');
    }
  });

  it("--unshare-cgroup-try: the sandbox does not see the app's own control groups", async () => {
    // The paths the app's process has in each hierarchy (those that are not the root).
    const own = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .map((l) => l.split(':').slice(2).join(':'))
      .filter((p) => p && p !== '/');
    const moved = own.length === 0 ? moveSelfIntoNewCgroup() : null;
    try {
      const paths = own.length > 0 ? own : [moved as string];
      const result = await t.run('cgroup', 'shell', 'cat /proc/self/cgroup', { sandbox: SANDBOX });
      for (const path of paths) expect(stdoutOf(result)).not.toContain(path);
      const twin = await withoutFlag('--unshare-cgroup-try', 'cat /proc/self/cgroup');
      expect(paths.some((path) => twin.includes(path))).toBe(true);
    } finally {
      if (moved) moveSelfBack(moved);
    }
  });
});

describe('the sandbox holds through a full agent turn of the real app (issue 17 #11)', () => {
  let aut: AppUnderTest;
  beforeAll(async () => {
    aut = await startAppUnderTest({ autoRun: true, maxFailedAttempts: 5, sandbox: { enabled: true } });
  });
  afterAll(async () => aut?.close());

  const marks = () => join(aut.dataDir, 'marks');

  /** One turn: the model plants .venv/bin/python, then asks for another Python cell. */
  async function plantingTurn(): Promise<{ conv: Conversation; cells: CellItem[] }> {
    mkdirSync(marks(), { recursive: true });
    const conv = await aut.app.handlers['conversation.create']({}, { transport: 'websocket' });
    const planted = plantedProgram(join(marks(), 'agent'), join(conv.workspace, 'ran.log'), '/usr/bin/python3');
    aut.llm.enqueue(
      { kind: 'tool', calls: [{ name: 'execute', arguments: { language: 'python', code: plantWith('.venv/bin/python', planted) } }] },
      { kind: 'tool', calls: [{ name: 'execute', arguments: { language: 'python', code: 'print("second cell", 6 * 7)' } }] },
      { kind: 'text', text: 'Done.' },
    );
    await aut.app.handlers['chat.send']({ conversationId: conv.id, text: 'Set up the environment' }, { transport: 'websocket' });
    await aut.app.context.agent.idle(conv.id);
    const saved = await aut.app.context.conversations.get(conv.id);
    return { conv: saved, cells: saved.items.filter((i): i is CellItem => i.kind === 'cell') };
  }

  it('agent cells run in the sandbox, and what they plant is never run outside it', async () => {
    const { conv, cells } = await plantingTurn();
    expect(cells).toHaveLength(2);
    for (const cell of cells) expect(cell.limits?.sandbox).toMatch(/^bubblewrap: /);
    expect(JSON.stringify(cells[1]?.outputs)).toContain('second cell 42');
    expect(readFileSync(join(conv.workspace, 'ran.log'), 'utf8')).toContain('.venv/bin/python');
    expect(existsSync(join(marks(), 'agent'))).toBe(false);
  });

  it('notebook re-runs are sandboxed too', async () => {
    const notebook = notebookJson([
      {
        cell_type: 'code',
        execution_count: null,
        outputs: [],
        source: `open(${JSON.stringify(join(marks(), 'rerun'))}, "w").write("escaped")`,
      },
    ]);
    mkdirSync(marks(), { recursive: true });
    const { conversation } = await aut.app.handlers['notebook.import'](
      { fileName: 'n.ipynb', source: { text: notebook } },
      { transport: 'websocket' },
    );
    await aut.app.handlers['notebook.rerun']({ conversationId: conversation.id }, { transport: 'websocket' });
    await expect
      .poll(async () => (await aut.app.context.conversations.get(conversation.id)).items.find((i) => i.kind === 'cell' && i.limits != null))
      .toBeTruthy();
    const cell = (await aut.app.context.conversations.get(conversation.id)).items.find((i): i is CellItem => i.kind === 'cell');
    expect(cell?.limits?.sandbox).toMatch(/^bubblewrap: /);
    expect(existsSync(join(marks(), 'rerun'))).toBe(false);
  });

  it('twin: with the sandbox off, the same turn makes the app run the planted interpreter', async () => {
    await aut.app.handlers['settings.set']({ sandbox: { enabled: false } }, { transport: 'websocket' });
    try {
      const { cells } = await plantingTurn();
      expect(cells[1]?.limits?.sandbox).toBeNull();
      expect(readFileSync(join(marks(), 'agent'), 'utf8')).toContain('ran outside');
    } finally {
      await aut.app.handlers['settings.set']({ sandbox: { enabled: true } }, { transport: 'websocket' });
    }
  });
});

/** Python for the host side: a System V segment under `key` holding a secret, kept until killed. */
const SHM_HOST = [
  'import ctypes, sys, time',
  'libc = ctypes.CDLL(None, use_errno=True)',
  'libc.shmat.restype = ctypes.c_void_p',
  'sid = libc.shmget(int(sys.argv[1]), 4096, 0o1600)',
  'addr = libc.shmat(sid, None, 0)',
  'ctypes.memmove(addr, b"host secret\\0", 12)',
  'print("ready", flush=True)',
  'try:',
  '    time.sleep(600)',
  'finally:',
  '    libc.shmctl(sid, 0, None)',
].join('\n');

/** Python that attaches to the segment by its key and prints what it holds. */
function SHM_READER(key: number): string {
  return [
    'import ctypes',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'libc.shmat.restype = ctypes.c_void_p',
    `sid = libc.shmget(${key}, 0, 0)`,
    'print("no segment" if sid < 0 else "read: " + ctypes.string_at(libc.shmat(sid, None, 0)).decode())',
  ].join('\n');
}

/** Puts this test process in a new pids control group (when every path it has is the root); returns its path. */
function moveSelfIntoNewCgroup(): string {
  const name = `oi-attack-${process.pid}`;
  const v1 = '/sys/fs/cgroup/pids';
  const base = existsSync(v1) ? v1 : '/sys/fs/cgroup';
  mkdirSync(join(base, name), { recursive: true });
  writeFileSync(join(base, name, 'cgroup.procs'), String(process.pid));
  return `/${name}`;
}

function moveSelfBack(path: string): void {
  const v1 = '/sys/fs/cgroup/pids';
  const base = existsSync(v1) ? v1 : '/sys/fs/cgroup';
  writeFileSync(join(base, 'cgroup.procs'), String(process.pid));
  try {
    rmdirSync(join(base, path));
  } catch {
    // Another process of ours may still be in it; it goes when they do.
  }
}
