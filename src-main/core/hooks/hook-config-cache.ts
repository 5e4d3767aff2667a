import { realpathSync } from 'node:fs';
import path from 'node:path';
import { entriesIdentity } from '../fs/entry-identity';
import { folderChain } from '../workspace/workspace-trust';
import { WORKSPACE_HOOKS_FILE, loadHooks, type HookConfigSources, type LoadedHooks } from './hook-config';

// Hooks are looked up at every event (twice a cell), and a change to their files must count at once
// (docs/agent.md#hooks). Reading them is a dozen asynchronous opens and realpaths, each a trip through
// libuv's thread pool: 1–4 ms of an `oi mcp` execute that otherwise costs about 3 (issue 37). So the
// last load of each workspace is kept, with the identity of everything it depended on — the
// workspace's real path and trust folder (the nearest `.git` up, as workspace-trust.ts finds it), the
// settings' hooks and trusted folders, and the identity (fs/entry-identity.ts) of the workspace's
// `.agents` folder and `.agents/hooks.json` and of the person's hooks file — taken with a few
// synchronous system calls before each event and compared. The files are still read only by
// loadHooks, which never follows a link (so a link's target is no input).

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
  let real: string;
  try {
    real = realpathSync.native(workspace);
  } catch {
    return null;
  }
  const watched = [path.join(real, WORKSPACE_HOOKS_FILE[0]), path.join(real, ...WORKSPACE_HOOKS_FILE)];
  if (sources.userFile) watched.push(sources.userFile);
  const files = entriesIdentity(watched, now);
  if (files === null) return null;
  return [
    real,
    folderChain(real)[0] ?? real,
    JSON.stringify(sources.settingsHooks),
    sources.trustedFolders.join('\0'),
    sources.userFile ?? '',
    files,
  ].join('\n');
}
