import { lstat, stat } from 'node:fs/promises';
import type { SandboxSettings } from '@contract';
import { localProbing, runProbe, type ProbeAnswer, type Probing } from '../languages/probing';
import { parseExtraPath } from './sandbox-plan';
import { oneOffSandbox, type AvailableSandbox } from './sandbox-wrap';
import { reachesInto, writableZones, type LinkMemo } from './writable-zones';

// Probing for a sandboxed conversation (languages/probing.ts). A program sandboxed code could have
// written — `.venv/bin/python` in the workspace, a tool in a workspace folder on PATH, anything a
// link there leads to — is run only inside the conversation's own sandbox, with its network setting,
// so planting one gains nothing the code did not have already. Programs outside those places are
// asked directly, as without a sandbox.

export interface SandboxProbingOptions {
  support: AvailableSandbox;
  settings: SandboxSettings;
  workspace: string;
  tmpRoot: string;
  /** The environment, or how to build it when first needed (session-types.ts, ProbingContext). */
  env: Record<string, string> | (() => Record<string, string>);
}

/** Answers are kept while the program file stays the same one (it may be rewritten at any time). */
const MAX_CACHED = 200;

export function sandboxProbing(options: SandboxProbingOptions): Probing {
  let built: Record<string, string> | null = typeof options.env === 'function' ? null : options.env;
  const env = (): Record<string, string> => (built ??= (options.env as () => Record<string, string>)());
  // Only read-write entries make zones, and only one under `~` needs the environment (its HOME):
  // building that walks the whole process environment, for every run (the app adds read-only and
  // sealed entries of its own to every run's settings).
  const zones = writableZones([
    options.workspace,
    ...options.settings.extraPaths
      .filter((entry) => entry.endsWith(':rw'))
      .map((entry) => parseExtraPath(entry, entry.startsWith('~') ? (env().HOME ?? '/') : '/').path),
  ]);
  const local = localProbing();
  const cache = new Map<string, ProbeAnswer>();
  // One answer per path for this probing's life (one run's detection, one install): a path none of
  // whose parts or links lies in a zone cannot be changed by sandboxed code, so "no" stays true, and
  // "yes" only keeps a program in the sandbox. A runtime's detection asks the same path up to three
  // times (its setting, the probe, sys.executable), each a walk of lstat calls; the parts the paths
  // share (the folders above a shim and the interpreter it names) are looked at once, for as long.
  const reached = new Map<string, boolean>();
  const links: LinkMemo = new Map();
  const reaches = (path: string): boolean => {
    let answer = reached.get(path);
    if (answer === undefined) reached.set(path, (answer = reachesInto(path, zones, links)));
    return answer;
  };
  return {
    writable: async (path) => reaches(path),
    async ask(command, args, asked = {}) {
      if (!reaches(command)) return local.ask(command, args, asked);
      const needs = asked.needs ?? [];
      const key = `${await identity(command)}\0${command}\0${args.join('\0')}\0${needs.join('\0')}`;
      const cached = asked.fresh ? undefined : cache.get(key);
      if (cached) return cached;
      const home = env().HOME;
      const once = await oneOffSandbox(
        {
          support: options.support,
          settings: options.settings,
          workspace: options.workspace,
          tmpRoot: options.tmpRoot,
          ...(home ? { home } : {}),
          programs: needs,
        },
        { file: command, args },
      );
      try {
        const answer = await runProbe(once.command.file, once.command.args, env());
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(key, answer);
        return answer;
      } finally {
        await once.dispose();
      }
    },
  };
}

/** Which file a path names right now (the link and its target), for the cache key. */
async function identity(path: string): Promise<string> {
  const parts = await Promise.all(
    [lstat(path), stat(path)].map((p) => p.then((s) => `${s.dev}:${s.ino}:${s.mtimeMs}:${s.size}`).catch(() => '-')),
  );
  return parts.join('/');
}
