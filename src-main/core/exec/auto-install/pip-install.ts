import { join } from 'node:path';
import { isExecutable } from '../languages/find-runtime';
import type { Probing } from '../languages/probing';
import { workspaceVenvPython } from '../languages/python';
import type { InstallPlace } from './install-place';
import { lastLines } from './installer-process';

// `python -m pip install` into the environment the session runs. pip reads its usual configuration
// (pip.conf, PIP_INDEX_URL, PIP_FIND_LINKS…) from the environment passed in. When the interpreter
// belongs to the system and pip refuses to touch it (PEP 668, "externally-managed-environment"),
// the packages go into a virtual environment in the workspace instead, which sees the system's
// packages too (--system-site-packages) so nothing the code already used goes missing.
//
// With the sandbox on, everything runs inside it (install-place.ts), and the packages always go to
// the workspace's .venv. pip itself then comes from `installer`, an interpreter outside anything the
// code can write, isolated (-I) and installing with --prefix into the .venv: the .venv's own python,
// its pip and its .pth files could all have been written by the code, and pip runs with the network.

export interface PipInstallInput {
  packages: string[];
  /** The interpreter the session runs. */
  python: string;
  workspace: string;
  env: Record<string, string>;
  /** Install into the workspace's .venv (the sandbox is on, or the interpreter is externally managed). */
  intoWorkspaceVenv: boolean;
  onTerminal?: (text: string) => void;
  signal?: AbortSignal;
  place: InstallPlace;
  /** With the sandbox on: the interpreter outside the workspace whose pip installs (never the .venv's). */
  installer?: string;
}

export interface PipInstallResult {
  ok: boolean;
  /** The interpreter that has the packages now; differs from the input when a .venv is used. */
  python: string;
  /** The .venv created by this install, if any. */
  createdVenv: string | null;
  /** The command as a person would type it. */
  command: string;
  /** Why it failed, as sentences, with the installer's last lines. */
  problem: string | null;
  stopped: 'interrupted' | 'timeout' | null;
  /** What the installers printed (plain text), for the cell's saved output. */
  log: string;
}

/**
 * Whether pip will refuse this interpreter (PEP 668): the same test pip makes, an EXTERNALLY-MANAGED
 * file in the standard library's folder of an interpreter that is not a virtual environment. Asked
 * up front, so the question shown to the user names where the packages will really go.
 */
export async function isExternallyManaged(python: string, probing: Probing): Promise<boolean> {
  const probe =
    'import os, sys, sysconfig; print(sys.prefix == sys.base_prefix and os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))';
  const answer = await probing.ask(python, ['-I', '-c', probe]);
  return answer.ok && answer.stdout.trim() === 'True';
}

export async function pipInstall(input: PipInstallInput): Promise<PipInstallResult> {
  if (input.place.sandboxed) return sandboxedPipInstall(input);
  const venvPython = workspaceVenvPython(input.workspace);
  let python = input.python;
  let createdVenv: string | null = null;
  const log: string[] = [];
  const failed = (venv: { command: string; problem: string | null; stopped: PipInstallResult['stopped'] }): PipInstallResult => ({
    ok: false,
    python,
    createdVenv: null,
    command: venv.command,
    problem: venv.problem,
    stopped: venv.stopped,
    log: log.join('\n'),
  });
  if (input.intoWorkspaceVenv && python !== venvPython) {
    const venv = await ensureVenv(input, python, log);
    if (venv.problem) return failed(venv);
    createdVenv = venv.created;
    python = venvPython;
  }
  let attempt = await install(input, python, log);
  if (!attempt.ok && !attempt.stopped && /externally[- ]managed[- ]environment/i.test(attempt.text) && python !== venvPython) {
    const note = `[${python} is managed by the system (PEP 668): installing into a virtual environment in the workspace instead]`;
    echo(input, note);
    log.push(note);
    const venv = await ensureVenv(input, python, log);
    if (venv.problem) return failed(venv);
    createdVenv = venv.created;
    python = venvPython;
    attempt = await install(input, python, log);
  }
  return {
    ok: attempt.ok,
    python,
    createdVenv,
    command: attempt.command,
    problem: attempt.ok ? null : `${attempt.command} failed${attempt.stopped ? ` (${attempt.stopped})` : ''}:\n${lastLines(attempt.text)}`,
    stopped: attempt.stopped,
    log: log.join('\n'),
  };
}

async function install(
  input: PipInstallInput,
  python: string,
  log: string[],
): Promise<{ ok: boolean; text: string; command: string; stopped: PipInstallResult['stopped'] }> {
  const args = ['-m', 'pip', 'install', '--disable-pip-version-check', ...input.packages];
  const command = `${python} ${args.filter((a) => a !== '--disable-pip-version-check').join(' ')}`;
  echo(input, `$ ${command}`);
  const result = await input.place.run({
    file: python,
    args,
    cwd: input.workspace,
    env: { ...input.env, PIP_NO_INPUT: '1' },
    onTerminal: input.onTerminal,
    signal: input.signal,
  });
  log.push(`$ ${command}`, result.text.trimEnd());
  return { ok: result.ok, text: result.text, command, stopped: result.stopped };
}

/** The workspace's .venv, created from `base` when missing. */
async function ensureVenv(
  input: PipInstallInput,
  base: string,
  log: string[],
): Promise<{ created: string | null; problem: string | null; command: string; stopped: PipInstallResult['stopped'] }> {
  const venvDir = join(input.workspace, '.venv');
  // Sandboxed, pip comes from the installer's own interpreter, so the .venv needs none of its own
  // (and the interpreter's pip stays importable in it through --system-site-packages).
  const flags = input.place.sandboxed ? ['--system-site-packages', '--without-pip'] : ['--system-site-packages'];
  const command = `${base} -m venv ${flags.join(' ')} ${venvDir}`;
  if (await isExecutable(workspaceVenvPython(input.workspace))) return { created: null, problem: null, command, stopped: null };
  echo(input, `$ ${command}`);
  const result = await input.place.run({
    file: base,
    args: ['-m', 'venv', ...flags, venvDir],
    cwd: input.workspace,
    env: input.env,
    onTerminal: input.onTerminal,
    signal: input.signal,
    programs: [base],
  });
  log.push(`$ ${command}`, result.text.trimEnd());
  if (result.ok) return { created: venvDir, problem: null, command, stopped: null };
  const missingVenv = /ensurepip is not available|No module named venv|python3-venv/.test(result.text);
  const problem = missingVenv
    ? `Could not create ${venvDir}: this Python cannot create virtual environments (Debian and Ubuntu ship that separately: sudo apt install python3-venv). Or choose another Python interpreter in settings.`
    : `Could not create ${venvDir}${result.stopped ? ` (${result.stopped})` : ''}:\n${lastLines(result.text)}`;
  return { created: null, problem, command, stopped: result.stopped };
}

/**
 * The sandboxed install: the .venv made (inside the sandbox, from `installer`) when missing, then
 * `installer -I -m pip install --prefix <.venv>` inside the sandbox with the network on.
 */
async function sandboxedPipInstall(input: PipInstallInput): Promise<PipInstallResult> {
  const venvDir = join(input.workspace, '.venv');
  const venvPython = workspaceVenvPython(input.workspace);
  const installer = input.installer;
  const log: string[] = [];
  const result = (
    ok: boolean,
    command: string,
    problem: string | null,
    stopped: PipInstallResult['stopped'],
    createdVenv: string | null = null,
  ): PipInstallResult => ({
    ok,
    python: venvPython,
    createdVenv,
    command,
    problem,
    stopped,
    log: log.join('\n'),
  });
  const args = [
    '-I',
    '-m',
    'pip',
    'install',
    '--disable-pip-version-check',
    '--no-warn-script-location',
    '--prefix',
    venvDir,
    ...input.packages,
  ];
  const command = `${installer ?? 'python3'} ${args.filter((a) => a !== '--disable-pip-version-check' && a !== '--no-warn-script-location').join(' ')}`;
  if (!installer) {
    return result(
      false,
      command,
      'No Python outside the workspace was found to install with (python3 on PATH); the sandbox never runs pip from the workspace itself.',
      null,
    );
  }
  let createdVenv: string | null = null;
  if (await isExecutable(venvPython)) {
    const mismatch = await versionMismatch(input.place.probing, venvPython, installer);
    if (mismatch) return result(false, command, mismatch, null);
  } else {
    const venv = await ensureVenv(input, installer, log);
    if (venv.problem) return result(false, venv.command, venv.problem, venv.stopped);
    createdVenv = venv.created;
  }
  echo(input, `$ ${command}`);
  const run = await input.place.run({
    file: installer,
    args,
    cwd: input.workspace,
    env: { ...input.env, PIP_NO_INPUT: '1' },
    onTerminal: input.onTerminal,
    signal: input.signal,
    network: true,
    programs: [installer],
  });
  log.push(`$ ${command}`, run.text.trimEnd());
  const problem = run.ok ? null : `${command} failed${run.stopped ? ` (${run.stopped})` : ''}:\n${lastLines(run.text)}`;
  return result(run.ok, command, problem, run.stopped, createdVenv);
}

/** A .venv of another Python version than the installer's would not see what it installs. */
async function versionMismatch(probing: Probing, venvPython: string, installer: string): Promise<string | null> {
  const ask = ['-I', '-c', 'import sys; print("%d.%d" % sys.version_info[:2])'];
  const [venv, own] = await Promise.all([probing.ask(venvPython, ask, { needs: [installer] }), probing.ask(installer, ask)]);
  const a = venv.stdout.trim();
  const b = own.stdout.trim();
  if (!venv.ok || !own.ok || a === b) return null;
  return `The workspace's .venv runs Python ${a}, and the Python the app installs with (${installer}) is ${b}: packages it installs would not be seen there. Choose ${installer} or a matching interpreter in settings, or remove .venv so the app makes a new one.`;
}

function echo(input: PipInstallInput, line: string): void {
  try {
    input.onTerminal?.(`\r\n\x1b[2m${line}\x1b[0m\r\n`);
  } catch {
    // The UI's trouble is not the install's.
  }
}
