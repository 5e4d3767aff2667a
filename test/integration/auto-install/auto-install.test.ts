import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type ExecSettings } from '@contract';
import { AutoInstall } from '../../../src-main/core/exec';
import type { ExecService, RunRequest } from '../../../src-main/core/exec';
import { type Harness, startHarness, streamTextOf as stdout } from '../../support/exec-harness';
import { buildWheel, type LocalRegistry, startNpmRegistry, venvWithoutOwnPip } from '../../support/package-registries';

// Real pip and npm, installing from a local folder and a local registry: pip's PIP_FIND_LINKS and
// PIP_NO_INDEX, npm's npm_config_registry — the same configuration users set, passed through the
// code's environment settings.

const SYSTEM_PYTHON = '/usr/bin/python3';
/**
 * A bound for the tests that make a virtual environment and run pip in it (not a timing assertion):
 * under a load of ~45 on two cores both ran past the suite's 60 s, before and after any change here.
 */
const PIP_TIMEOUT = 180_000;

function sh(file: string, args: string[]): Promise<string> {
  return new Promise((res, rej) =>
    execFile(file, args, { timeout: 120_000 }, (err, out, errText) => (err ? rej(new Error(errText || err.message)) : res(out))),
  );
}

describe('automatic installs', () => {
  let root: string;
  let wheels: string;
  let registry: LocalRegistry;
  let h: Harness;
  let service: ExecService;
  let questions: AutoInstall.InstallQuestion[];
  let records: AutoInstall.InstallRecord[];
  let answer: boolean;
  let counter = 0;

  const fresh = async (): Promise<string> => mkdtemp(join(root, `ws-${++counter}-`));
  const settings = (extra: Partial<ExecSettings> = {}): ExecSettings => ({
    ...defaultSettings.exec,
    timeoutMs: 60_000,
    ...extra,
    env: {
      PIP_FIND_LINKS: wheels,
      PIP_NO_INDEX: '1',
      PIP_NO_CACHE_DIR: '1',
      npm_config_registry: registry.url,
      npm_config_cache: join(root, 'npm-cache'),
      // Shell sessions without the contributor's ~/.bashrc (test/support/cli-process.ts's cliEnv says why).
      OI_NO_USER_RC: '1',
      ...extra.env,
    },
  });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'oi-auto-install-'));
    wheels = join(root, 'wheels');
    await buildWheel(wheels, 'oi_demo_pkg', 42);
    registry = await startNpmRegistry(join(root, 'npm'), 'oi-demo-npm', 7);
    h = await startHarness({
      workspace: root,
      tmpRoot: root,
      wrap: (engine) =>
        AutoInstall.withAutoInstall(engine, {
          approve: async (question) => {
            questions.push(question);
            return answer;
          },
          onInstall: (record) => records.push(record),
        }),
    });
    service = h.service;
  });

  afterAll(async () => {
    await h?.close();
    await registry?.close();
    await rm(root, { recursive: true, force: true });
  });

  const reset = (approve: boolean): void => {
    questions = [];
    records = [];
    answer = approve;
  };

  /**
   * A cell run in a fresh workspace, the install question answered `approve` (and nothing asked or
   * installed before it counted): the workspace, to look into, and the run's result.
   */
  const runInFreshWorkspace = async (
    approve: boolean,
    request: Pick<RunRequest, 'conversationId' | 'language' | 'code'> & Partial<Pick<RunRequest, 'sandbox' | 'onTerminal'>>,
    extra: Partial<ExecSettings> = {},
  ) => {
    reset(approve);
    const workspace = await fresh();
    return { workspace, result: await service.run({ ...request, workspace, settings: settings(extra) }) };
  };

  it('installs a missing Python package with pip after asking, and runs the cell again', { timeout: PIP_TIMEOUT }, async () => {
    const env = join(root, 'env');
    // The chosen interpreter: a venv whose `python -m pip` is Debian's pip, seen through its system
    // site packages, not a copy of its own (ensurepip's copy is ~4 CPU-seconds a venv). The app runs
    // `<interpreter> -m pip` either way, and pip installs into the venv (sys.prefix), as asserted below.
    await venvWithoutOwnPip(env, { systemSitePackages: true });
    const streamed: string[] = [];
    const { result } = await runInFreshWorkspace(
      true,
      {
        conversationId: 'pip',
        language: 'python',
        code: 'import oi_demo_pkg\nprint("value", oi_demo_pkg.VALUE)',
        onTerminal: (text) => streamed.push(text),
      },
      { pythonPath: join(env, 'bin', 'python') },
    );
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({
      kind: 'pip',
      packages: ['oi_demo_pkg'],
      alwaysAsk: false,
      reason: "ModuleNotFoundError: No module named 'oi_demo_pkg'",
    });
    expect(result.status).toBe('done');
    expect(stdout(result)).toContain('value 42');
    // The first failure, pip's own output and the re-run are all in the cell.
    expect(result.outputs.some((o) => o.output_type === 'error' && o.ename === 'ModuleNotFoundError')).toBe(true);
    expect(stdout(result)).toContain('Successfully installed oi_demo_pkg-1.0');
    expect(streamed.join('')).toContain('Successfully installed oi_demo_pkg-1.0');
    expect(result.forModel).toContain('Installed oi_demo_pkg with');
    expect(result.forModel).toContain('value 42');
    expect(records).toMatchObject([
      { manager: 'pip', packages: ['oi_demo_pkg'], ok: true, createdVenv: null, target: join(env, 'bin', 'python') },
    ]);
  });

  it('does not install when the user declines, and tells the model so', async () => {
    const { workspace, result } = await runInFreshWorkspace(
      false,
      { conversationId: 'declined', language: 'python', code: 'import oi_demo_pkg' },
      { pythonPath: SYSTEM_PYTHON },
    );
    expect(questions).toHaveLength(1);
    expect(result.status).toBe('failed');
    expect(result.forModel).toContain(`The user declined \`${join(workspace, '.venv', 'bin', 'python')} -m pip install oi_demo_pkg\``);
    expect(questions[0]?.text).toContain(
      'into a virtual environment in the workspace (.venv), because /usr/bin/python3 is managed by the system (PEP 668)',
    );
    expect(records).toEqual([]);
    expect(existsSync(join(workspace, '.venv'))).toBe(false);
  });

  it(
    'creates a workspace .venv when pip refuses a system-managed Python (PEP 668) and switches the session to it',
    { timeout: PIP_TIMEOUT },
    async () => {
      reset(true);
      const workspace = await fresh();
      // Debian's python3 first on PATH: the interpreter the session picks, and one pip will not touch.
      const path = `/usr/bin:/bin:${process.env.PATH ?? ''}`;
      const request = { conversationId: 'pep668', workspace, language: 'python', settings: settings({ env: { PATH: path } }) } as const;
      const before = await service.run({ ...request, code: 'import sys\nprint(sys.executable)' });
      expect(stdout(before)).toContain('/usr/bin/python3');
      const result = await service.run({ ...request, code: 'import oi_demo_pkg, sys\nprint("value", oi_demo_pkg.VALUE, sys.prefix)' });
      // Known in advance: pip is not even tried on the system Python.
      expect(stdout(result)).not.toContain('externally-managed-environment');
      expect(questions[0]?.command).toBe(`${join(workspace, '.venv', 'bin', 'python')} -m pip install oi_demo_pkg`);
      expect(result.status).toBe('done');
      expect(stdout(result)).toContain(`value 42 ${join(workspace, '.venv')}`);
      expect(result.forModel).toContain(`Python now runs in the workspace's virtual environment ${join(workspace, '.venv')}`);
      expect(result.forModel).toContain('PEP 668');
      expect(records[0]).toMatchObject({ manager: 'pip', ok: true, createdVenv: join(workspace, '.venv') });
      // Later runs keep using the .venv, which still sees Debian's own packages (--system-site-packages).
      const later = await service.run({ ...request, code: 'import sys, oi_demo_pkg, matplotlib\nprint(sys.prefix)' });
      expect(stdout(later)).toContain(join(workspace, '.venv'));
    },
  );

  it('installs a missing npm package into the workspace for node run from the shell', async () => {
    const { workspace, result } = await runInFreshWorkspace(true, {
      conversationId: 'npm-shell',
      language: 'shell',
      code: `node -e "console.log('value=' + require('oi-demo-npm'))"`,
    });
    expect(questions).toMatchObject([{ kind: 'npm', packages: ['oi-demo-npm'], command: 'npm install oi-demo-npm' }]);
    expect(result.status).toBe('done');
    expect(stdout(result)).toContain('value=7');
    expect(existsSync(join(workspace, 'node_modules', 'oi-demo-npm', 'index.js'))).toBe(true);
    expect(records).toMatchObject([{ manager: 'npm', packages: ['oi-demo-npm'], ok: true, target: workspace }]);
  });

  it('installs a missing npm package for a JavaScript cell', async () => {
    const { result } = await runInFreshWorkspace(true, {
      conversationId: 'npm-js',
      language: 'javascript',
      code: "console.log('value=' + require('oi-demo-npm'))",
    });
    expect(questions).toMatchObject([{ kind: 'npm', packages: ['oi-demo-npm'] }]);
    expect(result.status).toBe('done');
    expect(stdout(result)).toContain('value=7');
  });

  it('proposes a system package for a missing command and always asks, even in auto mode', async () => {
    const { result } = await runInFreshWorkspace(
      false,
      { conversationId: 'command', language: 'shell', code: 'oi-missing-tool --version' },
      { autoInstall: 'auto' },
    );
    expect(result.status).toBe('failed');
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ kind: 'system', alwaysAsk: true, packages: ['oi-missing-tool'] });
    expect(questions[0]?.command).toMatch(/(apt-get|dnf|pacman) .*oi-missing-tool|brew install oi-missing-tool/);
    expect(result.forModel).toContain('The user declined');
  });

  it('installs into the workspace .venv when the sandbox is on, and re-runs inside the sandbox', async () => {
    const env = join(root, 'env-sandbox');
    // As in the first test: `-I -m pip` from this interpreter finds Debian's pip through its system site packages.
    await venvWithoutOwnPip(env, { systemSitePackages: true });
    const { workspace, result } = await runInFreshWorkspace(
      true,
      {
        conversationId: 'sandboxed-install',
        language: 'python',
        code: 'import oi_demo_pkg, sys\nprint("value", oi_demo_pkg.VALUE, sys.prefix)',
        // pip runs inside the sandbox, which hides /tmp: the wheel folder is shown to it as any folder would be.
        sandbox: { enabled: true, chosen: true, allowNetwork: false, extraPaths: [wheels], allowedHosts: [] },
      },
      { pythonPath: join(env, 'bin', 'python') },
    );
    expect(questions[0]?.text).toContain('because the sandbox lets code change only the workspace');
    expect(questions[0]?.text).toContain('runs inside the sandbox, with the network on for the download only');
    expect(result.forModel).toContain('value 42');
    expect(result.status).toBe('done');
    expect(stdout(result)).toContain(`value 42 ${join(workspace, '.venv')}`);
    expect(result.limits.sandbox).toMatch(/^bubblewrap: /);
    // The interpreter chosen in settings was left untouched.
    expect(existsSync(join(env, 'lib'))).toBe(true);
    expect(await sh(join(env, 'bin', 'python'), ['-c', 'import importlib.util as u; print(u.find_spec("oi_demo_pkg") is None)'])).toBe(
      'True\n',
    );
    // Four sandboxes (probe, venv, pip, re-run) on a loaded 2-core machine take a while.
  }, 180_000);

  it('installs nothing when the setting is off', async () => {
    const { result } = await runInFreshWorkspace(
      true,
      { conversationId: 'off', language: 'python', code: 'import oi_demo_pkg' },
      { pythonPath: SYSTEM_PYTHON, autoInstall: 'off' },
    );
    expect(result.status).toBe('failed');
    expect(questions).toEqual([]);
  });
});
