import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, parse } from 'node:path';
import type { CellOutput, ExecSettings } from '@contract';
import { buildEnvironment } from '../process/env';
import { python as pythonLanguage, workspaceVenvPython } from '../languages/python';
import type { SandboxSupport } from '../sandbox/sandbox-support';
import { installPlace, type InstallPlace } from './install-place';
import { findLanguage } from '../languages/registry';
import { knownSecrets, SecretRedactor, type KnownSecret } from '../output/redactor';
import type { ExecService, RunRequest, RunResult } from '../engine/types';
import { lastLines, runInstaller } from './installer-process';
import type { InstallRecord } from './install-record';
import { findMissingDependency, type MissingDependency } from './missing-dependency';
import { npmInstall } from './npm-install';
import { npmPackageFor, pipPackageFor, pythonSystemPackage } from './package-names';
import { isExternallyManaged, pipInstall } from './pip-install';
import { type SystemInstall, systemInstallFor } from './system-install';

/** The line the kernel prints after a remote %pip install: `[oi] importable <module>: True|False`. */
const IMPORTABLE_MARK = '[oi] importable';

// The engine, plus: when a run fails because a package is missing, install it (after asking, or
// without asking for well-known packages when the setting is 'auto') and run the cell once more.
// It wraps any ExecService, so the engine itself knows nothing about package managers.

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

export interface AutoInstallOptions {
  /** Asks the user (the agent shows it like a cell approval); resolve true to install. */
  approve(question: InstallQuestion): Promise<boolean>;
  /** Called after each install attempt, to record it in the conversation. */
  onInstall?(record: InstallRecord, request: RunRequest): void;
  /** The environment installers inherit (default: process.env); settings.exec.env is applied on top. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Values of the app's API keys, kept out of the installers' environment as out of the code's. */
  secretValues?: () => readonly string[];
  /** The keys with what they are: redacted from the installers' output (output/redactor.ts). */
  secrets?: () => readonly KnownSecret[];
  /** Where sandboxed installs keep their private folders (default: the OS temp dir). */
  tmpRoot?: string;
  /** For tests: the sandbox support to assume (default: detected once). */
  sandboxSupport?: () => Promise<SandboxSupport>;
}

/** How much of an installer's output the cell keeps (the live terminal showed all of it). */
const LOG_KEEP = 16 * 1024;

type Ask = (kind: InstallQuestion['kind'], packages: string[], command: string, text: string) => InstallQuestion;

interface Plan {
  question: InstallQuestion;
  wellKnown: boolean;
  install(signal: AbortSignal | undefined): Promise<Installed>;
}

interface Installed {
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

export function withAutoInstall(exec: ExecService, options: AutoInstallOptions): ExecService {
  const secrets = (): KnownSecret[] => knownSecrets(options.secrets, options.secretValues);
  const environment = (request: RunRequest): Record<string, string> =>
    buildEnvironment({
      base: options.baseEnv ?? process.env,
      settingsEnv: request.settings.env,
      secretValues: secrets().map((s) => s.value),
    });

  async function planFor(request: RunRequest, missing: MissingDependency, first: RunResult): Promise<Plan | null> {
    const env = environment(request);
    // On a remote kernel the package belongs on the server: pip runs there, through the kernel.
    if (first.limits.location)
      return missing.kind === 'python-module' ? remotePipPlan(request, missing, first.limits.location, ask(request, missing)) : null;
    const place = await installPlace({
      sandbox: request.sandbox,
      workspace: request.workspace,
      env,
      tmpRoot: options.tmpRoot ?? tmpdir(),
      ...(options.sandboxSupport ? { support: options.sandboxSupport } : {}),
    });
    // The run itself was refused for the same reason; nothing to offer.
    if (typeof place === 'string') return null;
    return localPlan(request, missing, env, place, ask(request, missing));
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
      if (system) return systemPlan(request, missing, await systemInstallFor(system.apt, trustedPath), ask);
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
            tmpRoot: options.tmpRoot ?? tmpdir(),
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
    return systemPlan(request, missing, await systemInstallFor(missing.command, trustedPath), ask);
  }

  function remotePipPlan(
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
        const result = await exec.run({ ...request, code, signal, runId: request.runId ? `${request.runId}-install` : undefined });
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

  function systemPlan(request: RunRequest, missing: MissingDependency, install: SystemInstall | null, ask: Ask): Plan | null {
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
        const env = environment(request);
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

  async function afterRun(request: RunRequest, first: RunResult): Promise<RunResult> {
    const mode = request.settings.autoInstall ?? 'ask';
    if (mode === 'off' || request.signal?.aborted) return first;
    const language = findLanguage(request.language)?.name;
    const missing = language ? findMissingDependency(language, first) : null;
    // The installers' output goes to the UI and the cell with the app's keys redacted, as a run's does.
    const redactor = new SecretRedactor(secrets());
    const shown: RunRequest = request.onTerminal
      ? { ...request, onTerminal: (text) => request.onTerminal?.(redactor.push(text)) }
      : request;
    const plan = missing ? await planFor(shown, missing, first).catch(() => null) : null;
    if (!missing || !plan) return first;
    const { question } = plan;
    const approved = (mode === 'auto' && plan.wellKnown && !question.alwaysAsk) || (await options.approve(question).catch(() => false));
    if (!approved) {
      return annotate(
        first,
        `[${question.reason}. The user declined \`${question.command}\`, so the cell was not run again; do not install it another way without asking.]`,
        [],
      );
    }
    const startedInstall = Date.now();
    const unredacted = await plan.install(request.signal);
    const installed = {
      ...unredacted,
      log: redactor.redact(unredacted.log),
      problem: unredacted.problem === null ? null : redactor.redact(unredacted.problem),
    };
    safeCall(() => request.onTerminal?.(redactor.flush()));
    const installMs = Date.now() - startedInstall;
    safeCall(() => options.onInstall?.(installed.record, request));
    const log = installed.log.length > LOG_KEEP ? `…\n${installed.log.slice(-LOG_KEEP)}` : installed.log;
    const installOutput: CellOutput = { output_type: 'stream', name: installed.ok ? 'stdout' : 'stderr', text: `\n${log.trimEnd()}\n` };
    if (!installed.ok) {
      return annotate(
        first,
        `[${question.reason}. Tried \`${question.command}\`, which failed:\n${installed.problem ?? 'no details'}]`,
        [installOutput],
        installMs,
      );
    }
    if (installed.note) echo(request, `[${installed.note}]`);
    if (installed.restart) await exec.restart(request.conversationId, installed.restart);
    echo(request, `[installed ${installed.record.packages.join(', ')}; running the cell again]`);
    const rerun = await exec.run({ ...request, settings: installed.settings, runId: request.runId ? `${request.runId}-rerun` : undefined });
    const lead = `[The first run failed (${question.reason}). Installed ${installed.record.packages.join(', ')} with \`${installed.record.command}\`.${installed.note ? ` ${installed.note}` : ''} The cell ran again:]`;
    const attempt = [...first.outputs, installOutput, ...(installed.note ? [noteOutput(installed.note)] : [])];
    return {
      ...rerun,
      outputs: [...attempt, ...rerun.outputs],
      firstAttempt: { outputs: attempt.length, summary: attemptSummary(first, question.reason, installed.record.packages) },
      forModel: `${lead}\n${rerun.forModel}`,
      durationMs: first.durationMs + installMs + rerun.durationMs,
    };
  }

  return {
    async run(request) {
      const first = await exec.run(request);
      return afterRun(request, first);
    },
    interrupt: (conversationId, language) => exec.interrupt(conversationId, language),
    // The re-run after an install has its own run id.
    typeInto: (conversationId, runId, data) =>
      exec.typeInto(conversationId, runId, data) || exec.typeInto(conversationId, `${runId}-rerun`, data),
    restart: (conversationId, language) => exec.restart(conversationId, language),
    languages: (scope) => exec.languages(scope),
    python: (scope) => exec.python(scope),
    closeConversation: (conversationId) => exec.closeConversation(conversationId),
    dispose: () => exec.dispose(),
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

function annotate(result: RunResult, line: string, extra: CellOutput[], extraMs = 0): RunResult {
  return {
    ...result,
    outputs: [...result.outputs, ...extra],
    forModel: `${result.forModel}\n${line}`,
    durationMs: result.durationMs + extraMs,
  };
}

/** "first attempt: ModuleNotFoundError: No module named 'requests' — installed requests, ran again". */
function attemptSummary(first: RunResult, reason: string, packages: string[]): string {
  const error = first.outputs.find((o) => o.output_type === 'error');
  const what = error?.output_type === 'error' ? `${error.ename}: ${error.evalue}` : reason;
  const short = what.length > 200 ? `${what.slice(0, 197)}…` : what;
  return `first attempt: ${short} — installed ${packages.join(', ')}, ran again`;
}

function noteOutput(note: string): CellOutput {
  return { output_type: 'stream', name: 'stdout', text: `[${note}]\n` };
}

function echo(request: RunRequest, line: string): void {
  safeCall(() => request.onTerminal?.(`\r\n\x1b[2m${line}\x1b[0m\r\n`));
}

function safeCall(fn: () => void): void {
  try {
    fn();
  } catch {
    // A listener's trouble is not the run's.
  }
}
