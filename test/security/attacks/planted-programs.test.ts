import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@contract';
import { buildWheel, startNpmRegistry, type LocalRegistry } from '../../support/package-registries';
import { plantedProgram, plantWith, SANDBOX, startSandboxTarget, stdoutOf, type SandboxTarget } from './support/sandbox-target';

// Issue 17, finding 1: nothing sandboxed code can write is executed, loaded or sourced by the app
// outside the sandbox. Each attack is written by sandboxed code itself (a cell run in the sandbox
// plants it), then the app is made to use it: runtime detection before the next cell, the package
// list the model is shown, an automatic install. A planted program records a run at a path only
// reachable outside the sandbox. Each attack's twin runs the same thing with the sandbox off, where
// the app does run what the workspace holds (that is what a workspace .venv is for): proof that the
// attack reaches the app, and that only the sandbox route keeps it inside.

const SYSTEM_PYTHON = '/usr/bin/python3';
const SYSTEM_PYTHON_VERSION = execFileSync(SYSTEM_PYTHON, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
  encoding: 'utf8',
}).trim();

describe('planted programs never run outside the sandbox (issue 17 #1)', () => {
  let t: SandboxTarget;
  beforeAll(async () => {
    t = await startSandboxTarget();
  });
  afterAll(async () => t?.close());

  /** Sandboxed code writes `path` in the workspace as a program that leaves `mark` when run outside. */
  async function plantFromSandbox(workspace: string, path: string, mark: string, real: string): Promise<void> {
    const planted = await t.run(
      `plant-${mark}`,
      'python',
      plantWith(path, plantedProgram(t.marker(mark), join(workspace, 'ran.log'), real)),
      { workspace, sandbox: SANDBOX },
    );
    expect(planted.status).toBe('done');
    expect(existsSync(join(workspace, path))).toBe(true);
  }

  it('a .venv/bin/python planted by sandboxed code is run only inside the sandbox before the next Python cell', async () => {
    const workspace = await t.freshWorkspace();
    await plantFromSandbox(workspace, '.venv/bin/python', 'venv-probe', SYSTEM_PYTHON);
    const next = await t.run('venv-probe', 'python', 'print("next cell", 6 * 7)', { workspace, sandbox: SANDBOX });
    expect(stdoutOf(next)).toContain('next cell 42');
    // The planted interpreter was asked and run — inside the sandbox, where the home is read-only.
    expect(await readFile(join(workspace, 'ran.log'), 'utf8')).toContain('.venv/bin/python');
    expect(await t.marked('venv-probe')).toBeNull();

    // Twin: without the sandbox the app runs the workspace's interpreter itself, before the cell.
    await t.run('venv-probe-twin', 'python', 'print(1)', { workspace });
    expect(await t.marked('venv-probe')).toContain('ran outside');
  });

  it('a .pth file in a planted .venv runs only inside the sandbox, though the interpreter itself is the system one', async () => {
    const workspace = await t.freshWorkspace();
    const site = `.venv/lib/python${SYSTEM_PYTHON_VERSION}/site-packages`;
    const pth = `import os; open(${JSON.stringify(t.marker('pth'))}, 'a').write('ran outside\\n') if os.access(${JSON.stringify(join(t.home, 'marks'))}, os.W_OK) else None\n`;
    const plant = [
      'import os',
      `os.makedirs(${JSON.stringify(site)}, exist_ok=True)`,
      'os.makedirs(".venv/bin", exist_ok=True)',
      `os.symlink(${JSON.stringify(SYSTEM_PYTHON)}, ".venv/bin/python")`,
      `open(".venv/pyvenv.cfg", "w").write("home = /usr/bin\\ninclude-system-site-packages = false\\nversion = ${SYSTEM_PYTHON_VERSION}\\n")`,
      `open(${JSON.stringify(`${site}/oi_attack.pth`)}, "w").write(${JSON.stringify(pth)})`,
    ].join('\n');
    expect((await t.run('pth', 'python', plant, { workspace, sandbox: SANDBOX })).status).toBe('done');
    const next = await t.run('pth', 'python', 'import sys; print(sys.prefix)', { workspace, sandbox: SANDBOX });
    expect(stdoutOf(next)).toContain(join(workspace, '.venv'));
    // The package list the model is shown asks the same interpreter.
    expect(
      await t.service.python({ workspace, settings: { ...defaultSettings.exec, env: { HOME: t.home } }, sandbox: SANDBOX }),
    ).not.toBeNull();
    expect(await t.marked('pth')).toBeNull();

    // Twin: listing the packages of that .venv without the sandbox runs its .pth file as the user.
    await t.service.python({ workspace, settings: { ...defaultSettings.exec, env: { HOME: t.home } } });
    expect(await t.marked('pth')).toContain('ran outside');
  });

  it('a program planted in a workspace folder on PATH is asked its version only inside the sandbox', async () => {
    const workspace = await t.freshWorkspace();
    const ruby = execFileSync('sh', ['-c', 'command -v ruby'], { encoding: 'utf8' }).trim();
    await plantFromSandbox(workspace, 'bin/ruby', 'path-probe', ruby);
    const path = `${join(workspace, 'bin')}:${process.env.PATH ?? ''}`;
    const result = await t.run('path-probe', 'ruby', 'puts 6 * 7', { workspace, sandbox: SANDBOX, settings: { env: { PATH: path } } });
    expect(stdoutOf(result)).toContain('42');
    const listed = await t.service.languages({
      workspace,
      settings: { ...defaultSettings.exec, env: { PATH: path, HOME: t.home } },
      sandbox: SANDBOX,
    });
    expect(listed.find((l) => l.name === 'ruby')?.available).toBe(true);
    expect(await readFile(join(workspace, 'ran.log'), 'utf8')).toContain('bin/ruby');
    expect(await t.marked('path-probe')).toBeNull();

    // Twin: without the sandbox, detection runs the planted `ruby --version` as the user.
    await t.run('path-probe-twin', 'ruby', 'puts 1', { workspace, settings: { env: { PATH: path } } });
    expect(await t.marked('path-probe')).toContain('--version');
  });

  // Each install starts several sandboxes; a loaded 2-core machine needs more than the default minute.
  describe('automatic installs', { timeout: 180_000 }, () => {
    let wheels: string;
    let registry: LocalRegistry;
    beforeAll(async () => {
      wheels = join(t.tmpRoot, 'wheels');
      await buildWheel(wheels, 'oi_attack_pkg', 5);
      // An install script, as native packages have: npm runs it with the shell .npmrc names.
      registry = await startNpmRegistry(join(t.tmpRoot, 'npm'), 'oi-attack-npm', 9, { postinstall: 'node -e "0"' });
    });
    afterAll(async () => registry?.close());

    const pipEnv = () => ({ PIP_FIND_LINKS: wheels, PIP_NO_INDEX: '1', PIP_NO_CACHE_DIR: '1' });
    const npmEnv = () => ({ npm_config_registry: registry.url, npm_config_cache: join(t.tmpRoot, 'npm-cache') });

    it('pip never runs from a planted .venv: it runs inside the sandbox from an interpreter outside the workspace', async () => {
      const workspace = await t.freshWorkspace();
      await plantFromSandbox(workspace, '.venv/bin/python', 'pip', SYSTEM_PYTHON);
      const result = await t.run('pip', 'python', 'import oi_attack_pkg', {
        workspace,
        sandbox: { ...SANDBOX, extraPaths: [wheels] },
        settings: { env: pipEnv() },
      });
      const question = t.questions.at(-1);
      expect(question?.kind).toBe('pip');
      expect(question?.command).not.toContain('.venv/bin/python -m pip');
      expect(result.forModel).toContain('Installed oi_attack_pkg');
      expect(await t.marked('pip')).toBeNull();

      // Twin: without the sandbox the same install runs the planted interpreter as the user.
      await t.run('pip-twin', 'python', 'import oi_attack_pkg_missing', { workspace, settings: { env: pipEnv() } });
      expect(await t.marked('pip')).toContain('ran outside');
    });

    it("npm never reads the workspace's .npmrc: a planted script-shell does not run, and the package lands in node_modules", async () => {
      const workspace = await t.freshWorkspace();
      await plantFromSandbox(workspace, 'evil-shell.sh', 'npmrc', '/bin/sh');
      await writeFile(join(workspace, '.npmrc'), `script-shell=${join(workspace, 'evil-shell.sh')}\n`);
      const result = await t.run('npm', 'javascript', "console.log('value ' + require('oi-attack-npm'))", {
        workspace,
        sandbox: SANDBOX,
        settings: { env: npmEnv() },
      });
      expect(t.questions.at(-1)?.kind).toBe('npm');
      expect(stdoutOf(result)).toContain('value 9');
      expect(existsSync(join(workspace, 'node_modules', 'oi-attack-npm', 'index.js'))).toBe(true);
      // Not even inside: npm never saw the .npmrc (it would have run the script shell with the network on).
      expect(existsSync(join(workspace, 'ran.log'))).toBe(false);
      expect(await t.marked('npmrc')).toBeNull();

      // Twin: without the sandbox npm honours the workspace's .npmrc and runs the planted shell as the user.
      await rm(join(workspace, 'node_modules'), { recursive: true, force: true });
      await t.run('npm-twin', 'javascript', "require('oi-attack-npm')", { workspace, settings: { env: npmEnv() } });
      expect(await t.marked('npmrc')).toContain('ran outside');
    });

    it('a system installer is never taken from a workspace folder on PATH', async () => {
      const workspace = await t.freshWorkspace();
      await plantFromSandbox(workspace, 'bin/apt-get', 'apt', '/bin/true');
      const path = `${join(workspace, 'bin')}:/usr/bin:/bin:/usr/sbin:/sbin`;
      await t.run('apt', 'shell', 'oi-planted-tool --version', { workspace, sandbox: SANDBOX, settings: { env: { PATH: path } } });
      expect(t.questions.at(-1)).toMatchObject({ kind: 'system', packages: ['oi-planted-tool'] });
      expect(await t.marked('apt')).toBeNull();

      // Twin: without the sandbox the workspace's folders on PATH are the user's own, as in a terminal.
      await t.run('apt-twin', 'shell', 'oi-planted-tool --version', { workspace, settings: { env: { PATH: path } } });
      expect(await t.marked('apt')).toContain('install');
    });
  });
});
