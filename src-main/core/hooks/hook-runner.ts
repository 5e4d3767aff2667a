import os from 'node:os';
import { DEFAULT_HOOK_TIMEOUT_SECONDS, type HookEvent, type HooksConfig, type SandboxSettings, type Settings } from '@contract';
import { Sandbox, Processes } from '../exec';
import { personPath, shellLine } from '../programs/app-programs';
import { readHookAnswer, type HookDecision } from './hook-answer';
import type { LoadedHook, LoadedHooks } from './hook-config';
import { HookConfigCache } from './hook-config-cache';
import { runHookProcess } from './hook-process';

// Runs the hooks of one event (docs/agent.md#hooks), one after the other in the order they are
// configured (Settings, then <data folder>/hooks.json, then the workspace's), and says what they
// decided and what the person must be told. The person's own hooks run as the person, outside the
// sandbox: they are the person's programs. A workspace's hooks are text sandboxed code can rewrite
// at any time, so (once the folder is trusted) they run inside the conversation's sandbox whenever
// the sandbox is on, and not at all when it is on but cannot start here; with the sandbox off, the
// conversation's code runs as the person anyway, and so do they.

export interface HookRunnerDeps {
  /** `<data folder>/hooks.json`, or null for none. */
  userFile: string | null;
  /** The settings as they hold (the sandbox's effective `enabled`): hooks, trustedFolders, sandbox. */
  settings: () => Settings;
  /**
   * The sandbox a workspace's hook runs in, as cells get it (app.ts: the skills folder readable, the
   * data folder sealed, so a hook the code rewrote cannot write the person's hooks.json). Default:
   * settings().sandbox.
   */
  sandbox?: () => SandboxSettings;
  /** Where a sandboxed hook's private folder goes (the engine's temp root). */
  tmpRoot?: string;
  sandboxSupport?: () => Promise<Sandbox.SandboxSupport>;
  /** The keys the app knows, kept out of a hook's environment whatever variable holds them. */
  secretValues?: () => readonly string[];
  /** The environment hooks start from (default: the app's). */
  env?: NodeJS.ProcessEnv;
}

export interface HookContext {
  conversationId: string;
  workspace: string;
  /** The conversation's profile's hooks, in place of Settings' (docs/agent.md#profiles). */
  profileHooks?: HooksConfig | null;
}

export interface HookNotice {
  level: 'info' | 'warning';
  text: string;
}

export interface HookOutcome {
  /** beforeCell: `deny` when a hook refused or failed, `ask` when one asked for the person; otherwise `allow`. */
  decision: HookDecision;
  /** Why, for the model (a refusal) or the person. */
  reason: string | null;
  notices: HookNotice[];
}

export class HookRunner {
  private readonly told = new Set<string>();
  /** The hooks files as last read, used again while nothing they depend on has changed (hook-config-cache.ts). */
  private readonly configs = new HookConfigCache();

  constructor(private readonly deps: HookRunnerDeps) {}

  /**
   * Runs the event's hooks whose matcher takes `subject` (a cell's language, what the person is needed
   * for). Before a cell, a refusal stops the rest; a hook that fails there refuses the cell (a guard
   * that could not answer is not a yes). At the other events a failure is only reported.
   */
  async fire(event: HookEvent, ctx: HookContext, subject: string | null, payload: Record<string, unknown>): Promise<HookOutcome> {
    const settings = this.deps.settings();
    const loaded = await this.load(ctx, settings);
    const outcome: HookOutcome = { decision: 'allow', reason: null, notices: [] };
    for (const problem of loaded.problems) this.once(ctx, problem, 'warning', outcome);
    if (loaded.untrusted) {
      this.once(
        ctx,
        `This workspace has hooks (${loaded.untrusted.file}) that do not run until you trust ${loaded.untrusted.folder}.`,
        'info',
        outcome,
      );
    }
    const input = `${JSON.stringify({ event, conversationId: ctx.conversationId, workspace: ctx.workspace, ...payload })}\n`;
    for (const hook of loaded.hooks) {
      if (hook.event !== event || (hook.matcher && (subject === null || !hook.matcher.test(subject)))) continue;
      const timeoutMs = (hook.spec.timeoutSeconds ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000;
      // Whatever goes wrong around a run (no temp folder for the sandbox) is that hook's failure, never the turn's.
      const run = await this.run(hook, ctx, settings, input, timeoutMs).catch((err: unknown) => ({
        kind: 'not-started' as const,
        error: err instanceof Error ? err.message : String(err),
      }));
      const answer = readHookAnswer(run, timeoutMs);
      const name = `The ${event} hook "${shorten(hook.spec.command)}" (${hook.where})`;
      if (!answer.ok) {
        outcome.notices.push({
          level: 'warning',
          text: `${name} ${answer.failure}.${event === 'beforeCell' ? ' The cell was not run.' : ''}`,
        });
        if (event === 'beforeCell') {
          return {
            ...outcome,
            decision: 'deny',
            reason: `a hook the person set up to check code before it runs failed (it ${answer.failure})`,
          };
        }
        continue;
      }
      if (event !== 'beforeCell') continue;
      if (answer.decision === 'deny') {
        outcome.notices.push({ level: 'info', text: `${name} refused to run the cell${answer.reason ? `: ${answer.reason}` : '.'}` });
        return { ...outcome, decision: 'deny', reason: answer.reason ?? 'no reason given' };
      }
      if (answer.decision === 'ask') {
        outcome.decision = 'ask';
        outcome.notices.push({
          level: 'info',
          text: `${name} asks you to decide whether this cell runs${answer.reason ? `: ${answer.reason}` : '.'}`,
        });
      }
    }
    return outcome;
  }

  /** Whether a hook of this event would run here (one in an untrusted workspace would not). Runs nothing. */
  async has(event: HookEvent, ctx: HookContext): Promise<boolean> {
    const loaded = await this.load(ctx, this.deps.settings());
    return loaded.hooks.some((hook) => hook.event === event);
  }

  private load(ctx: HookContext, settings: Settings): Promise<LoadedHooks> {
    return this.configs.load(ctx.workspace, {
      userFile: this.deps.userFile,
      settingsHooks: ctx.profileHooks ?? settings.hooks,
      trustedFolders: settings.trustedFolders,
    });
  }

  private async run(hook: LoadedHook, ctx: HookContext, settings: Settings, input: string, timeoutMs: number) {
    const base = this.deps.env ?? process.env;
    const env = {
      ...Processes.withoutKeys(base, this.deps.secretValues?.() ?? []),
      PATH: personPath(base.PATH ?? ''),
      OI_HOOK_EVENT: hook.event,
      OI_WORKSPACE: ctx.workspace,
      OI_CONVERSATION_ID: ctx.conversationId,
    };
    let line;
    try {
      line = shellLine(hook.spec.command);
    } catch (err) {
      return { kind: 'not-started', error: err instanceof Error ? err.message : String(err) } as const;
    }
    if (hook.source !== 'workspace') return runHookProcess({ line, cwd: os.homedir(), env, input, timeoutMs });
    if (!settings.sandbox.enabled) return runHookProcess({ line, cwd: ctx.workspace, env, input, timeoutMs });
    const support = await (this.deps.sandboxSupport ?? Sandbox.sandboxSupport)();
    if (!support.available) {
      return {
        kind: 'not-started',
        error: `the sandbox is on but cannot start here (${support.reason}), and a workspace's hooks run only inside it`,
      } as const;
    }
    const once = await Sandbox.oneOffSandbox(
      {
        support,
        settings: this.deps.sandbox?.() ?? settings.sandbox,
        workspace: ctx.workspace,
        tmpRoot: this.deps.tmpRoot ?? os.tmpdir(),
        ...(base.HOME ? { home: base.HOME } : {}),
      },
      line,
    );
    try {
      return await runHookProcess({ line: once.command, cwd: once.cwd, env, input, timeoutMs });
    } finally {
      await once.dispose();
    }
  }

  /** A notice the conversation gets once (a bad file, an untrusted one), not at every event. */
  private once(ctx: HookContext, text: string, level: HookNotice['level'], outcome: HookOutcome): void {
    const key = `${ctx.conversationId}\0${text}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    outcome.notices.push({ level, text });
  }
}

function shorten(command: string): string {
  const one = command.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 79)}…` : one;
}
