import type { ExecSettings } from '@contract';
import { HtmlSession } from './html-session';
import type { LanguageDefinition, Runtime } from './languages/language';
import type { LimitController } from './limits';
import type { Session } from './session';
import { OneShotSession } from './one-shot-session';
import { RunnerSession } from './runner-session';
import { ShellSession } from './shell-session';

// Picks the session implementation for a language's kind.

export interface StartSessionOptions {
  language: LanguageDefinition;
  runtime: Runtime;
  workspace: string;
  env: Record<string, string>;
  tmpRoot: string;
  resourcesDir: string;
  limits: LimitController;
  settings: ExecSettings;
}

export async function startSession(options: StartSessionOptions): Promise<Session> {
  switch (options.language.kind) {
    case 'shell':
      return ShellSession.start({
        bash: options.runtime.command,
        workspace: options.workspace,
        env: options.env,
        tmpRoot: options.tmpRoot,
        limits: options.limits,
        limitSettings: options.settings,
      });
    case 'html':
      return new HtmlSession();
    case 'one-shot':
      return new OneShotSession(options);
    case 'runner':
      return RunnerSession.start({
        language: options.language,
        runtime: options.runtime,
        workspace: options.workspace,
        env: options.env,
        tmpRoot: options.tmpRoot,
        resourcesDir: options.resourcesDir,
        limits: options.limits,
        limitSettings: options.settings,
      });
  }
}
