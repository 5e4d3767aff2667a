import { lstat, stat } from 'node:fs/promises';
import type { SandboxSettings } from '@contract';
import { localProbing, runProbe, type ProbeAnswer, type Probing } from '../languages/probing';
import { parseExtraPath } from './sandbox-plan';
import { oneOffSandbox, type AvailableSandbox } from './sandbox-wrap';
import { reachesInto, writableZones } from './writable-zones';

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
  env: Record<string, string>;
}

/** Answers are kept while the program file stays the same one (it may be rewritten at any time). */
const MAX_CACHED = 200;

export function sandboxProbing(options: SandboxProbingOptions): Probing {
  const home = options.env.HOME;
  const zones = writableZones([
    options.workspace,
    ...options.settings.extraPaths
      .map((entry) => parseExtraPath(entry, home ?? '/'))
      .filter((e) => e.writable)
      .map((e) => e.path),
  ]);
  const local = localProbing();
  const cache = new Map<string, ProbeAnswer>();
  return {
    writable: async (path) => reachesInto(path, zones),
    async ask(command, args, asked = {}) {
      if (!reachesInto(command, zones)) return local.ask(command, args, asked);
      const needs = asked.needs ?? [];
      const key = `${await identity(command)}\0${command}\0${args.join('\0')}\0${needs.join('\0')}`;
      const cached = asked.fresh ? undefined : cache.get(key);
      if (cached) return cached;
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
        const answer = await runProbe(once.command.file, once.command.args, options.env);
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
