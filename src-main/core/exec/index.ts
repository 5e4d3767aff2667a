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

// What the engine's callers use beside the port, in named groups (`Sandbox.withSandboxSetting`,
// `Languages.findLanguage`…), as JupyterLab's kernel package hands out namespaces: a caller's import names
// the part of the engine it depends on, and each group's file says what the group is for.
export * as AutoInstall from './api/auto-install';
export * as Kernels from './api/kernels';
export * as Languages from './api/languages';
export * as Outputs from './api/outputs';
export * as Processes from './api/processes';
export * as Sandbox from './api/sandbox';

// Keys redacted from what runs give back (the app hands the engine its keys with what they are).
export type { KnownSecret } from './output/redactor';
