import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { HOOK_EVENTS, HooksConfig, HooksFile, type HookEvent, type HookSpec } from '@contract';
import { isInsideTrusted, trustFolderOf } from '../workspace/workspace-trust';
import { readBeneath } from '../fs/bounded-read';

// Where hooks come from (docs/agent.md#hooks): the person's own — Settings, then
// `<data folder>/hooks.json` — and a workspace's `.agents/hooks.json`, used only once the person
// trusts that folder (settings.trustedFolders, as for AGENTS.md). A change must count at once: the
// files are read again whenever anything they depend on has changed (hook-config-cache.ts), never
// through a link and never waiting on a FIFO, at most HOOKS_FILE_BYTES each.

export const HOOKS_FILE_BYTES = 256 * 1024;
/** The workspace's file, inside its folder (`.oi/` is the app's own, so not there). */
export const WORKSPACE_HOOKS_FILE = ['.agents', 'hooks.json'] as const;

export type HookSource = 'settings' | 'user-file' | 'workspace';

export interface LoadedHook {
  event: HookEvent;
  spec: HookSpec;
  source: HookSource;
  /** Where it was written, for notices: "Settings" or the file's path. */
  where: string;
  matcher: RegExp | null;
}

export interface LoadedHooks {
  hooks: LoadedHook[];
  /** What could not be used, in words the person can act on (a file that is not valid, a bad matcher). */
  problems: string[];
  /** A workspace hooks file found in a folder the person does not trust: not used. */
  untrusted: { file: string; folder: string } | null;
}

export interface HookConfigSources {
  /** `<data folder>/hooks.json`, or null for none. */
  userFile: string | null;
  settingsHooks: HooksConfig;
  trustedFolders: readonly string[];
}

export async function loadHooks(workspace: string, sources: HookConfigSources): Promise<LoadedHooks> {
  const out: LoadedHooks = { hooks: [], problems: [], untrusted: null };
  add(out, sources.settingsHooks, 'settings', 'Settings');
  // The two files are looked for at once (each read is a few opens, one folder at a time); their
  // hooks still go in the order above, and the problems of the person's file come first.
  const userProblems: string[] = [];
  const [user, local] = await Promise.all([
    sources.userFile
      ? readHooksFile(path.dirname(sources.userFile), [path.basename(sources.userFile)], sources.userFile, userProblems)
      : null,
    workspaceHooks(workspace, sources.trustedFolders),
  ]);
  out.problems.push(...userProblems, ...local.problems);
  if (user && sources.userFile) add(out, user, 'user-file', sources.userFile);
  out.untrusted = local.untrusted;
  if (local.config) add(out, local.config, 'workspace', local.file);
  return out;
}

/** The workspace's hooks file: its hooks once the folder is trusted, else whether there is one. */
async function workspaceHooks(
  workspace: string,
  trustedFolders: readonly string[],
): Promise<{ config: HooksConfig | null; file: string; problems: string[]; untrusted: LoadedHooks['untrusted'] }> {
  const real = await realpath(workspace).catch(() => path.resolve(workspace));
  const file = path.join(real, ...WORKSPACE_HOOKS_FILE);
  const problems: string[] = [];
  const folder = await trustFolderOf(real);
  if (!isInsideTrusted(folder, trustedFolders)) {
    // Not even parsed: a stranger's file is only noticed, so the person can decide to trust the folder.
    return { config: null, file, problems, untrusted: (await isFile(real)) ? { file, folder } : null };
  }
  const config = await readHooksFile(real, WORKSPACE_HOOKS_FILE, file, problems);
  return { config, file, problems, untrusted: null };
}

function add(out: LoadedHooks, config: HooksConfig, source: HookSource, where: string): void {
  for (const event of HOOK_EVENTS) {
    for (const spec of config[event] ?? []) {
      let matcher: RegExp | null = null;
      if (spec.matcher !== undefined) {
        try {
          matcher = new RegExp(`^(?:${spec.matcher})$`);
        } catch (err) {
          out.problems.push(
            `The ${event} hook "${spec.command}" in ${where} has a matcher that is not a regular expression (${String(err)}); it was not run.`,
          );
          continue;
        }
      }
      out.hooks.push({ event, spec, source, where, matcher });
    }
  }
}

async function readHooksFile(root: string, segments: readonly string[], shown: string, problems: string[]): Promise<HooksConfig | null> {
  const text = await readBounded(root, segments);
  if (text === null) return null;
  if (text.length > HOOKS_FILE_BYTES) {
    problems.push(`${shown} is larger than ${HOOKS_FILE_BYTES / 1024} KB; its hooks were not used.`);
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    problems.push(`${shown} is not valid JSON (${err instanceof Error ? err.message : String(err)}); its hooks were not used.`);
    return null;
  }
  const parsed = HooksFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    problems.push(
      `${shown} is not a hooks file: ${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'unknown problem'}; its hooks were not used.`,
    );
    return null;
  }
  return parsed.data.hooks;
}

const readBounded = async (root: string, segments: readonly string[]): Promise<string | null> => {
  const read = await readBeneath(root, segments, HOOKS_FILE_BYTES);
  return read.ok ? read.bytes.toString('utf8') : null;
};

async function isFile(workspace: string): Promise<boolean> {
  return (await readBounded(workspace, WORKSPACE_HOOKS_FILE)) !== null;
}

/** The workspace's hooks file and its text (never through a link, bounded), or null when it has none: for the person to read before trusting. */
export async function workspaceHooksFile(workspace: string): Promise<{ path: string; text: string } | null> {
  const real = await realpath(workspace).catch(() => path.resolve(workspace));
  const text = await readBounded(real, WORKSPACE_HOOKS_FILE);
  return text === null ? null : { path: path.join(real, ...WORKSPACE_HOOKS_FILE), text };
}
