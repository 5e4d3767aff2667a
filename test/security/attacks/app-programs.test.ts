import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { CheckpointService } from '../../../src-main/core/checkpoints/checkpoint-service';
import { plantedProgram, plantWith, SANDBOX, startSandboxTarget, stdoutOf, type SandboxTarget } from './support/sandbox-target';

// Issue 24, findings 1 and 2: the app started programs of its own by bare name — `git` for every
// checkpoint (with the app's PATH), `stty` in the shell line that starts every runner (with the
// session's PATH), `stty -F` when a cell asks for input, `sudo -K`. With a workspace folder on PATH
// (the person activated the workspace's .venv, or "." is on PATH), a program sandboxed code planted
// there ran outside the sandbox, as the person. Now every one of them is resolved to an absolute path
// in a system folder (src-main/core/programs/app-programs.ts). Each attack is planted by sandboxed code;
// each twin starts the same program by bare name, as the app used to, and the planted one runs.

const run = promisify(execFile);

describe("the app's own programs never come from a workspace", () => {
  let t: SandboxTarget;
  const savedPath = process.env.PATH;
  beforeAll(async () => {
    t = await startSandboxTarget();
  });
  afterAll(async () => t?.close());
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  /** Sandboxed code writes `path` in the workspace as a program that leaves `mark` when run outside. */
  async function plant(workspace: string, path: string, mark: string, real: string): Promise<void> {
    const planted = await t.run(
      `plant-${mark}`,
      'python',
      plantWith(path, plantedProgram(t.marker(mark), join(workspace, 'ran.log'), real)),
      {
        workspace,
        sandbox: SANDBOX,
      },
    );
    expect(planted.status, planted.forModel).toBe('done');
    expect(existsSync(join(workspace, path))).toBe(true);
  }

  it('a git planted in the workspace .venv/bin on the app’s PATH never runs for a checkpoint', async () => {
    const workspace = await t.freshWorkspace();
    await plant(workspace, '.venv/bin/git', 'git', '/usr/bin/git');
    // The person activated the workspace's virtual environment before starting the app.
    process.env.PATH = `${join(workspace, '.venv', 'bin')}:${savedPath ?? ''}`;
    const service = new CheckpointService({ dataDir: join(t.tmpRoot, 'ckpt-data'), settings: () => defaultSettings });
    const conv = { id: 'conv-git', workspace };
    await service.before(conv, 'cell-1');
    await t.run('conv-git', 'shell', 'echo changed > file.txt', { workspace, sandbox: SANDBOX });
    const changes = await service.after(conv, 'cell-1', []);
    // The checkpoint was taken, with the real git…
    expect(changes.checkpointed).toBe(true);
    expect(changes.files.map((f) => f.path)).toContain('file.txt');
    // …and the planted one never ran.
    expect(await t.marked('git')).toBeNull();

    // Twin: git by bare name on that PATH, as checkpoints used to start it, runs the planted one.
    await run('git', ['--version'], { env: { PATH: process.env.PATH } });
    expect(await t.marked('git')).toContain('ran outside');
  });

  it('an stty planted in a workspace folder on the session’s PATH never runs when a runner starts', async () => {
    const workspace = await t.freshWorkspace();
    await plant(workspace, 'bin/stty', 'stty', '/bin/stty');
    const path = `${join(workspace, 'bin')}:${savedPath ?? ''}`;
    // Sandboxed and not: the runner's start line runs outside the sandbox's wrapper either way.
    // JavaScript's runner starts through the `stty -opost` line; Python's sets its terminal itself
    // (termios), and is here so that a start line added back to it is held to the same rule.
    const runners = [
      ['javascript', 'console.log(6 * 7)'],
      ['python', 'print(6 * 7)'],
    ] as const;
    for (const sandbox of [SANDBOX, { ...SANDBOX, enabled: false }]) {
      for (const [language, code] of runners) {
        const result = await t.run(`stty-${language}-${String(sandbox.enabled)}`, language, code, {
          workspace,
          sandbox,
          settings: { env: { PATH: path } },
        });
        expect(stdoutOf(result)).toContain('42');
      }
    }
    expect(await t.marked('stty')).toBeNull();
    expect(existsSync(join(workspace, 'ran.log')) ? await readFile(join(workspace, 'ran.log'), 'utf8') : '').not.toContain('stty');

    // Twin: the runner's start line with a bare `stty`, as it used to be, runs the planted one.
    await run('/bin/sh', ['-c', 'stty -opost 2>/dev/null; true'], { env: { PATH: path }, cwd: workspace });
    expect(await t.marked('stty')).toContain('ran outside');
  });
});
