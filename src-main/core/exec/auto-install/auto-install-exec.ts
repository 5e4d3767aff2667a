import { tmpdir } from 'node:os';
import type { CellOutput } from '@contract';
import type { ExecService, RunRequest, RunResult } from '../engine/types';
import { findLanguage } from '../languages/registry';
import { knownSecrets, SecretRedactor, type KnownSecret } from '../output/redactor';
import { buildEnvironment } from '../process/env';
import type { SandboxSupport } from '../sandbox/sandbox-support';
import type { InstallRecord } from './install-record';
import { echo, planFor, safeCall, type InstallQuestion, type PlanContext } from './install-plans';
import { findMissingDependency } from './missing-dependency';

// The engine, plus: when a run fails because a package is missing, install it (after asking, or
// without asking for well-known packages when the setting is 'auto') and run the cell once more.
// It wraps any ExecService, so the engine itself knows nothing about package managers.

/**
 * No install, and why, in a sentence the model reads instead of "The user declined …" — for an answer
 * that was not the person's no (nobody answered in time, nobody could be asked).
 */
export interface InstallRefusal {
  declined: string;
}

export interface AutoInstallOptions {
  /** Asks the user (the agent shows it like a cell approval); resolve true to install, false when they said no. */
  approve(question: InstallQuestion): Promise<boolean | InstallRefusal>;
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

export function withAutoInstall(exec: ExecService, options: AutoInstallOptions): ExecService {
  const secrets = (): KnownSecret[] => knownSecrets(options.secrets, options.secretValues);
  const plans: PlanContext = {
    exec,
    environment: (request) =>
      buildEnvironment({
        base: options.baseEnv ?? process.env,
        settingsEnv: request.settings.env,
        secretValues: secrets().map((s) => s.value),
      }),
    tmpRoot: options.tmpRoot ?? tmpdir(),
    ...(options.sandboxSupport ? { sandboxSupport: options.sandboxSupport } : {}),
  };

  async function afterRun(request: RunRequest, first: RunResult): Promise<RunResult> {
    const mode = request.settings.autoInstall ?? 'ask';
    if (mode === 'off' || request.signal?.aborted) return first;
    const missing = missingOf(request, first);
    if (!missing) return first; // nothing to install: no redactor, no keys read (a warm run's work before, issue 37)
    // The installers' output goes to the UI and the cell with the app's keys redacted, as a run's does.
    const redactor = new SecretRedactor(secrets());
    const shown: RunRequest = request.onTerminal
      ? { ...request, onTerminal: (text) => request.onTerminal?.(redactor.push(text)) }
      : request;
    const plan = await planFor(plans, shown, missing, first).catch(() => null);
    if (!plan) return first;
    const { question } = plan;
    const approved = (mode === 'auto' && plan.wellKnown && !question.alwaysAsk) || (await options.approve(question).catch(() => false));
    if (approved !== true) {
      const why = approved === false ? `The user declined \`${question.command}\`` : approved.declined;
      return annotate(
        first,
        `[${question.reason}. ${why}, so the cell was not run again; do not install it another way without asking.]`,
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
    prepare: (request) => exec.prepare?.(request) ?? Promise.resolve(),
    interrupt: (conversationId, language) => exec.interrupt(conversationId, language),
    // The re-run after an install has its own run id.
    typeInto: (conversationId, runId, data) =>
      exec.typeInto(conversationId, runId, data) || exec.typeInto(conversationId, `${runId}-rerun`, data),
    restart: (conversationId, language) => exec.restart(conversationId, language),
    languages: (scope) => exec.languages(scope),
    python: (scope) => exec.python(scope),
    closeConversation: (conversationId) => exec.closeConversation(conversationId),
    endIdle: (idleMs, keep, now) => exec.endIdle(idleMs, keep, now),
    dispose: () => exec.dispose(),
  };
}

/** What a run that failed for want of a package is missing (null for any other run). */
function missingOf(request: RunRequest, result: RunResult): ReturnType<typeof findMissingDependency> {
  const language = findLanguage(request.language)?.name;
  return language ? findMissingDependency(language, result) : null;
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
