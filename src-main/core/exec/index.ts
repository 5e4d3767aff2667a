// The execution engine's only way in from outside src-main/core/exec (lint enforces it; see
// docs/architecture.md for what each folder holds). What is not exported here is the engine's own
// business: sessions, runners, output handling and process control change without touching callers.

// The port and the engine behind it.
export type {
  ComputerAnswer,
  ExecService,
  LanguageInfo,
  LanguagesScope,
  PythonInfo,
  RunRequest,
  RunResult,
  RunComputer,
  RunSandbox,
  RunStatus,
} from './engine/types';
export type { InputAnswer, InputAsker, InputQuestion } from './input/input-types';
export { createExecService, type ExecServiceOptions } from './engine/exec-service';
export { createSessionRouter, type SessionRouter, type SessionRouterOptions } from './engine/session-router';
// What a router hands the engine (ExecServiceOptions.router): routes that start sessions.
export type { Session, SessionOutcome, SessionRoute, SessionRun, StartSessionOptions } from './session/session-types';
export type { Runtime } from './languages/language';

// Auto-install wraps the engine: a failed import becomes a question, an install and a re-run.
export { withAutoInstall, type AutoInstallOptions, type InstallRefusal } from './auto-install/auto-install-exec';
export type { InstallQuestion } from './auto-install/install-plans';
export type { InstallRecord } from './auto-install/install-record';
export { pipPackageFor } from './auto-install/package-names';

// Languages: what names a cell may use and what runs them.
export { LANGUAGES, findLanguage } from './languages/registry';
export { python } from './languages/python';
export { GENERIC_SHELL_NAMES } from './languages/shell';
export { genericShell, loginShellOf, type ShellName } from './shell/shell-choice';

// Remote Jupyter kernels.
export { RemoteKernels, type KernelBinding, type KernelBindingMemory } from './remote/remote-kernels';
export { kernelAccount, normalizeServerUrl, RemoteKernelError } from './remote/jupyter-urls';
export { listKernelSpecs } from './remote/list-kernel-specs';

// The sandbox setting applied to every run the app makes; the sandbox as the settings page describes it.
export { withReadableFolder, withSandboxSetting, withSealedFolder } from './sandbox/sandbox-policy';
export { describeSandbox } from './sandbox/describe-sandbox';
export { autoRunWarning, sandboxGaps, sandboxProtections } from './sandbox/sandbox-gaps';
export { sandboxSupport, type SandboxSupport } from './sandbox/sandbox-support';
// A workspace's hooks run once inside the conversation's sandbox (core/hooks), with no key in their environment.
export { oneOffSandbox } from './sandbox/sandbox-wrap';
export { withoutKeys } from './process/env';
export { effectiveSandbox, withSandboxDefault } from './sandbox/sandbox-default';
export { hostListed, normalHost, REGISTRY_HOSTS } from './sandbox/network-hosts';
export { LOOPBACK_NAMES } from './sandbox/network-relay';
export { startNetworkProxy, type NetworkPolicy, type NetworkProxy, type NetworkVerdict } from './sandbox/network-proxy';
export { connectPumped } from './sandbox/socket-pump';
// Where sandboxed code can write, for what the app follows from outside it (the `oi mcp` approval endpoint file).
export { reachesInto, writableZones } from './sandbox/writable-zones';
export { parseExtraPath } from './sandbox/sandbox-plan';
export { isAlive } from './process/process-alive';

// Keys redacted from what runs give back (the app hands the engine its keys with what they are).
export type { KnownSecret } from './output/redactor';

// How outputs read for the model, shared with notebook exports.
export { HeadTail, splitBudget } from './output/head-tail';
export { describeForModel } from './output/run-output';

// The UI's cap on a run's output, measured on its own by bench/output.bench.ts.
export { OutputCap, formatBytes } from './output/output-cap';
