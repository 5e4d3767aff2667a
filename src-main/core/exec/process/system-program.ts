import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

// The app's own helper programs (ps, prlimit, bwrap) by absolute path, from the system's folders
// first. A program started by bare name is looked up on the app's PATH, whose entries may be
// relative ("." — the folder the CLI was started in, which can be the workspace) or point into a
// workspace; a program sandboxed code planted there would then run as the user.

const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/opt/homebrew/bin'];

const found = new Map<string, string>();

/** Absolute path of `name` from the system folders, else from absolute PATH entries; `name` if not found. */
export function systemProgram(name: string, path = process.env.PATH ?? ''): string {
  const cached = found.get(name);
  if (cached) return cached;
  const dirs = [...SYSTEM_DIRS, ...path.split(delimiter).filter((d) => d && isAbsolute(d))];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      found.set(name, candidate);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return name;
}
