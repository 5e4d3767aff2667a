import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { folderChain } from '../workspace/workspace-trust';
import { WORKSPACE_HOOKS_FILE, loadHooks, type HookConfigSources, type LoadedHooks } from './hook-config';

// Hooks are looked up at every event (twice a cell), and a change to their files must count at once
// (docs/agent.md#hooks). Reading them is a dozen asynchronous opens and realpaths, each a trip through
// libuv's thread pool: 1–4 ms of an `oi mcp` execute that otherwise costs about 3 (issue 37). So the
// last load of each workspace is kept, with the identity of everything it depended on — the
// workspace's real path and trust folder (the nearest `.git` up, as workspace-trust.ts finds it), the
// settings' hooks and trusted folders, and lstat (device, inode, type, size, mtime, ctime) of the
// workspace's `.agents` folder and `.agents/hooks.json` and of the person's hooks file — taken with
// a few synchronous system calls before each event and compared.
// - A file edited in place changes its ctime (which nobody can set back); one replaced by another,
//   created or removed changes its inode or presence; a link put in its place, its type. The files
//   are still read only by loadHooks, which never follows a link (so a link's target is no input).
// - Timestamps move in clock ticks (up to 10 ms), so two writes within one tick can leave the same
//   times: an entry changed less than SETTLED_MS before the look is never kept, and is read again
//   next time (as git treats a "racily clean" file).

const SETTLED_MS = 50;
/** Workspaces remembered at once (the desktop app's open conversations); the oldest goes first. */
const KEPT = 32;

export class HookConfigCache {
  private readonly kept = new Map<string, { key: string; loaded: LoadedHooks }>();

  /** `now` is the wall clock the files' ctimes are compared with (tests move it). */
  constructor(private readonly now: () => number = Date.now) {}

  async load(workspace: string, sources: HookConfigSources): Promise<LoadedHooks> {
    // Taken before the files are read: a change while they are read makes the next key differ.
    const key = identityOf(workspace, sources, this.now());
    const kept = this.kept.get(workspace);
    if (key !== null && kept?.key === key) return kept.loaded;
    const loaded = await loadHooks(workspace, sources);
    this.kept.delete(workspace);
    if (key !== null) {
      this.kept.set(workspace, { key, loaded });
      if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
    }
    return loaded;
  }
}

/** What the hooks of `workspace` depend on, or null when it cannot be told (or changed too recently to tell). */
function identityOf(workspace: string, sources: HookConfigSources, now: number): string | null {
  const settledBefore = BigInt(Math.floor(now - SETTLED_MS)) * 1_000_000n;
  let real: string;
  try {
    real = realpathSync.native(workspace);
  } catch {
    return null;
  }
  const parts = [
    real,
    folderChain(real)[0] ?? real,
    JSON.stringify(sources.settingsHooks),
    sources.trustedFolders.join('\0'),
    sources.userFile ?? '',
  ];
  const watched = [path.join(real, WORKSPACE_HOOKS_FILE[0]), path.join(real, ...WORKSPACE_HOOKS_FILE)];
  if (sources.userFile) watched.push(sources.userFile);
  for (const entry of watched) {
    let st;
    try {
      st = lstatSync(entry, { bigint: true, throwIfNoEntry: false });
    } catch {
      return null;
    }
    if (!st) {
      parts.push('-');
      continue;
    }
    if (st.ctimeNs > settledBefore || st.mtimeNs > settledBefore) return null;
    parts.push(`${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`);
  }
  return parts.join('\n');
}
