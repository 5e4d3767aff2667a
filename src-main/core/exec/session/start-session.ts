import { HtmlSession } from './html-session';
import type { Session, StartSessionOptions } from './session-types';
import { OneShotFallback } from './one-shot-fallback';
import { OneShotSession } from './one-shot-session';
import { RunnerSession } from '../runner/runner-session';
import { ShellSession } from '../shell/shell-session';
import { bashFlavor } from '../shell/shell-integration';
import { zshFlavor } from '../shell/zsh-integration';
import { errorMessage } from '@contract';

// Picks the session implementation for a language's kind.

export async function startSession(options: StartSessionOptions): Promise<Session> {
  switch (options.language.kind) {
    case 'shell':
      return ShellSession.start({
        program: options.runtime.command,
        flavor: options.language.name === 'zsh' ? zshFlavor : bashFlavor,
        workspace: options.workspace,
        env: options.env,
        tmpRoot: options.tmpRoot,
        resourcesDir: options.resourcesDir,
        limits: options.limits,
        limitSettings: options.settings,
      });
    case 'html':
      return new HtmlSession();
    case 'one-shot':
      return new OneShotSession(options);
    case 'runner':
      return startRunner(options);
  }
}

/**
 * A runner session; for a language that also has a one-shot command (R, Ruby), a runner that
 * cannot start falls back to one process per cell, saying why, instead of running nothing.
 */
async function startRunner(options: StartSessionOptions): Promise<Session> {
  try {
    return await RunnerSession.start({
      language: options.language,
      runtime: options.runtime,
      workspace: options.workspace,
      env: options.env,
      tmpRoot: options.tmpRoot,
      resourcesDir: options.resourcesDir,
      limits: options.limits,
      limitSettings: options.settings,
    });
  } catch (err) {
    if (!options.language.oneShot) throw err;
    const why = errorMessage(err);
    const { label } = options.language;
    const note = `the persistent ${label} session could not start (${why}); this cell ran as a separate ${label} process, so nothing is kept between cells`;
    return new OneShotFallback(new OneShotSession(options), note);
  }
}
