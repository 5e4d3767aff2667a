import { existsSync } from 'node:fs';
import { join, parse } from 'node:path';
import type { ExecSettings } from '@contract';
import type { ExecService, RunRequest, RunResult } from '../engine/types';
import { python as pythonLanguage, workspaceVenvPython } from '../languages/python';
import type { SandboxSupport } from '../sandbox/sandbox-support';
import { installPlace, type InstallPlace } from './install-place';
import type { InstallRecord } from './install-record';
import { lastLines, runInstaller } from './installer-process';
import type { MissingDependency } from './missing-dependency';
import { npmInstall } from './npm-install';
import { npmPackageFor, pipPackageFor, pythonSystemPackage } from './package-names';
import { isExternallyManaged, pipInstall } from './pip-install';
import { type SystemInstall, systemInstallFor } from './system-install';

// What to offer for a missing dependency, and how to install it: pip (into the workspace's .venv when
// the sandbox or PEP 668 says so), npm, pip on a remote kernel through the kernel itself, or a system
// package. auto-install-exec.ts asks the question a plan carries and runs the cell again after its install.

/** The line the kernel prints after a remote %pip install: `[oi] importable <module>: True|False`. */
const IMPORTABLE_MARK = '[oi] importable';

export interface InstallQuestion {
  conversationId: string;
  runId: string | null;
  kind: 'pip' | 'npm' | 'system';
  packages: string[];
  /** The command that will run, exactly as shown to the user. */
  command: string;
  /** The error that led here: "ModuleNotFoundError: No module named 'cv2'". */
  reason: string;
  /** The question for the user, as one sentence. */
  text: string;
  /** System packages change the machine and need root: ask even when auto-run is on. */
  alwaysAsk: boolean;
}

type Ask = (kind: InstallQuestion['kind'], packages: string[], command: string, text: string) => InstallQuestion;

export interface Plan {
  question: InstallQuestion;
  wellKnown: boolean;
  install(signal: AbortSignal | undefined): Promise<Installed>;
}

export interface Installed {
  ok: boolean;
  problem: string | null;
  /** What the installers printed, kept (its end) in the cell's saved output. */
  log: string;
  record: InstallRecord;
  /** Settings for the re-run (another interpreter after a .venv was created). */
  settings: ExecSettings;
  /** Said to the model and the user before the re-run. */
  note: string | null;
  /** The session to restart before the re-run, so it picks up a new interpreter. */
  restart: string | null;
}

/** What plans need from the wrapper: the engine (a remote install runs in the kernel) and the installers' environment. */
export interface PlanContext {
  exec: ExecService;
  /** The environment installers get for a request: the app's keys kept out, settings.exec.env applied. */
  environment(request: RunRequest): Record<string, string>;
  /** Where sandboxed installs keep their private folders. */
  tmpRoot: string;
  sandboxSupport?: () => Promise<SandboxSupport>;
}

/** What to offer for a missing dependency, or null when nothing fits (the code's own module, an unknown name, no runtime). */
export async function planFor(ctx: PlanContext, request: RunRequest, missing: MissingDependency, first: RunResult): Promise<Plan | null> {
  const env = ctx.environment(request);
  // On a remote kernel the package belongs on the server: pip runs there, through the kernel.
  if (first.limits.location)
    return missing.kind === 'python-module' ? remotePipPlan(ctx, request, missing, first.limits.location, ask(request, missing)) : null;
  const place = await installPlace({
    sandbox: request.sandbox,
    workspace: request.workspace,
    env,
    tmpRoot: ctx.tmpRoot,
    ...(ctx.sandboxSupport ? { support: ctx.sandboxSupport } : {}),
  });
  // The run itself was refused for the same reason; nothing to offer.
  if (typeof place === 'string') return null;
  return localPlan(ctx, request, missing, env, place, ask(request, missing));
}

function ask(request: RunRequest, missing: MissingDependency): Ask {
  return (kind, packages, command, text) => ({
    conversationId: request.conversationId,
    runId: request.runId ?? null,
    kind,
    packages,
    command,
    reason: missing.reason,
    text,
    alwaysAsk: kind === 'system',
  });
}

async function localPlan(
  ctx: PlanContext,
  request: RunRequest,
  missing: MissingDependency,
  env: Record<string, string>,
  place: InstallPlace,
  ask: Ask,
): Promise<Plan | null> {
  const trustedPath = await place.trustedPath(env.PATH ?? '');
  if (missing.kind === 'python-module') {
    const top = missing.module.split('.')[0] as string;
    // The code's own module (utils.py next to it), not a package: installing a namesake would be wrong.
    if (existsSync(join(request.workspace, `${top}.py`)) || existsSync(join(request.workspace, top))) return null;
    const system = pythonSystemPackage(missing.module);
    if (system) return systemPlan(ctx, request, missing, await systemInstallFor(system.apt, trustedPath), ask);
    const choice = pipPackageFor(missing.module);
    if (!choice) return null;
    const runtime = await pythonLanguage
      .detect({ workspace: request.workspace, settings: request.settings, path: env.PATH ?? '', probing: place.probing })
      .catch(() => null);
    if (!runtime) return null;
    const sandboxed = place.sandboxed;
    const managed = !sandboxed && (await isExternallyManaged(runtime.command, place.probing));
    const intoVenv = sandboxed || managed;
    const venvPython = workspaceVenvPython(request.workspace);
    // Sandboxed, pip comes from an interpreter the code cannot have written (pip-install.ts).
    const installer = sandboxed ? ((await place.probing.writable(runtime.command)) ? runtime.support?.[0] : runtime.command) : undefined;
    const because = sandboxed
      ? 'the sandbox lets code change only the workspace'
      : managed
        ? `${runtime.command} is managed by the system (PEP 668)`
        : null;
    const where =
      intoVenv && runtime.command !== venvPython ? `a virtual environment in the workspace (.venv), because ${because}` : runtime.command;
    const command = sandboxed
      ? `${installer ?? 'python3'} -m pip install --prefix ${join(request.workspace, '.venv')} ${choice.package}`
      : `${intoVenv ? venvPython : runtime.command} -m pip install ${choice.package}`;
    const how = sandboxed ? ' It runs inside the sandbox, with the network on for the download only.' : '';
    return {
      wellKnown: choice.wellKnown,
      question: ask(
        'pip',
        [choice.package],
        command,
        `Install the Python package "${choice.package}" with pip into ${where}? The code imports ${missing.module}, which is not installed.${how}`,
      ),
      install: async (signal) => {
        const result = await pipInstall({
          packages: [choice.package],
          python: runtime.command,
          workspace: request.workspace,
          env,
          intoWorkspaceVenv: intoVenv,
          onTerminal: request.onTerminal,
          signal,
          place,
          ...(installer ? { installer } : {}),
        });
        const switched = result.ok && result.python !== runtime.command;
        return {
          ok: result.ok,
          problem: result.problem,
          log: result.log,
          record: record('pip', [choice.package], result.command, result.python, result.createdVenv, result.ok),
          // An explicit interpreter setting would win over the workspace's .venv: point it there for the re-run.
          settings: switched && request.settings.pythonPath ? { ...request.settings, pythonPath: result.python } : request.settings,
          note: switched
            ? `Python now runs in the workspace's virtual environment ${join(request.workspace, '.venv')}${result.createdVenv ? `, created because ${because ?? `pip refused ${runtime.command} (PEP 668)`}` : ''}; the Python session restarted, so variables from earlier cells are gone.`
            : null,
          restart: switched ? 'python' : null,
        };
      },
    };
  }
  if (missing.kind === 'node-module') {
    const choice = npmPackageFor(missing.specifier);
    if (!choice) return null;
    const command = `npm install ${choice.package}`;
    const how = place.sandboxed ? ' It runs inside the sandbox, with the network on for the download only.' : '';
    return {
      wellKnown: choice.wellKnown,
      question: ask(
        'npm',
        [choice.package],
        command,
        `Install the npm package "${choice.package}" into the workspace (${join(request.workspace, 'node_modules')})? The code needs ${missing.specifier}, which is not installed.${how}`,
      ),
      install: async (signal) => {
        const result = await npmInstall({
          packages: [choice.package],
          workspace: request.workspace,
          env,
          onTerminal: request.onTerminal,
          signal,
          place,
          tmpRoot: ctx.tmpRoot,
        });
        return {
          ok: result.ok,
          problem: result.problem,
          log: result.log,
          record: record('npm', [choice.package], result.command, request.workspace, null, result.ok),
          settings: request.settings,
          note: null,
          restart: null,
        };
      },
    };
  }
  return systemPlan(ctx, request, missing, await systemInstallFor(missing.command, trustedPath), ask);
}

function remotePipPlan(
  ctx: PlanContext,
  request: RunRequest,
  missing: Extract<MissingDependency, { kind: 'python-module' }>,
  location: string,
  ask: Ask,
): Plan | null {
  const choice = pipPackageFor(missing.module);
  if (!choice) return null;
  const command = `%pip install ${choice.package}`;
  return {
    wellKnown: choice.wellKnown,
    question: ask(
      'pip',
      [choice.package],
      command,
      `Install the Python package "${choice.package}" on the ${location} (runs \`${command}\` in the kernel)? The code imports ${missing.module}, which is not installed there.`,
    ),
    install: async (signal) => {
      // The kernel's import system caches folder listings: make the new package visible to the re-run.
      // Then the kernel itself says whether the module imports now: pip's own output comes from a
      // subprocess, which ipykernel may forward after the cell has ended (seen under load), and
      // %pip reports failure in that output only.
      const code = [
        command,
        'import importlib as _oi_importlib, importlib.util as _oi_util',
        '_oi_importlib.invalidate_caches()',
        `print(${JSON.stringify(`${IMPORTABLE_MARK} ${missing.module}:`)}, _oi_util.find_spec(${JSON.stringify(missing.module)}) is not None)`,
        'del _oi_importlib, _oi_util',
      ].join('\n');
      const result = await ctx.exec.run({ ...request, code, signal, runId: request.runId ? `${request.runId}-install` : undefined });
      const text = result.outputs.map((o) => (o.output_type === 'stream' ? o.text : '')).join('');
      const ok = result.status === 'done' && text.includes(`${IMPORTABLE_MARK} ${missing.module}: True`);
      return {
        ok,
        problem: ok ? null : `${command} failed on the ${location}:\n${lastLines(text || result.forModel)}`,
        log: `${command}\n${text.trimEnd()}`,
        record: record('pip', [choice.package], command, location, null, ok),
        settings: request.settings,
        note: null,
        restart: null,
      };
    },
  };
}

function systemPlan(
  ctx: PlanContext,
  request: RunRequest,
  missing: MissingDependency,
  install: SystemInstall | null,
  ask: Ask,
): Plan | null {
  if (!install) return null;
  const what =
    missing.kind === 'command'
      ? `The program "${missing.command}" is not installed.`
      : `${missing.reason}: Python needs the system package ${install.package}.`;
  return {
    wellKnown: false,
    question: ask(
      'system',
      [install.package],
      install.command,
      `${what} Run \`${install.command}\`? It installs a system package${install.command.startsWith('sudo ') ? ' with administrator rights' : ''}.`,
    ),
    install: async (signal) => {
      echo(request, `$ ${install.command}`);
      // Outside any sandbox (it needs root), so it runs from the file system's root, not the
      // workspace, with the programs found on the trusted PATH (system-install.ts).
      const env = ctx.environment(request);
      const result = await runInstaller({
        file: install.file,
        args: install.args,
        cwd: parse(request.workspace).root,
        env: { ...env, PATH: install.path, DEBIAN_FRONTEND: 'noninteractive' },
        onTerminal: request.onTerminal,
        signal,
      });
      const needsPassword = /a password is required|a terminal is required/.test(result.text);
      const problem = result.ok
        ? null
        : needsPassword
          ? `${install.command} needs your password, which the app does not ask for: run it yourself in a terminal, then run the cell again.`
          : `${install.command} failed${result.stopped ? ` (${result.stopped})` : ''}:\n${lastLines(result.text)}${/Unable to locate package/.test(result.text) ? '\n(The package lists may be out of date: sudo apt-get update, then try again.)' : ''}`;
      return {
        ok: result.ok,
        problem,
        log: `$ ${install.command}\n${result.text.trimEnd()}`,
        record: record(install.manager, [install.package], install.command, null, null, result.ok),
        settings: request.settings,
        note: null,
        restart: null,
      };
    },
  };
}

function record(
  manager: InstallRecord['manager'],
  packages: string[],
  command: string,
  target: string | null,
  createdVenv: string | null,
  ok: boolean,
): InstallRecord {
  return { manager, packages, command, target, createdVenv, ok, at: new Date().toISOString() };
}

/** A line of the wrapper's own on the run's live terminal, dimmed. */
export function echo(request: RunRequest, line: string): void {
  safeCall(() => request.onTerminal?.(`\r\n\x1b[2m${line}\x1b[0m\r\n`));
}

export function safeCall(fn: () => void): void {
  try {
    fn();
  } catch {
    // A listener's trouble is not the run's.
  }
}
