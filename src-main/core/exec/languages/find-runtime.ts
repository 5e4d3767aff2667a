import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

// Looking for programs and asking their version. Results are cached for the life of the process:
// runtimes are not installed mid-conversation often enough to pay a spawn on every run.

const versionCache = new Map<string, Promise<string | null>>();

export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable called `name` on PATH (or name itself when it is a path). */
export async function which(name: string, path: string): Promise<string | null> {
  if (isAbsolute(name)) return (await isExecutable(name)) ? name : null;
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (await isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

/** Runs `command args` and extracts a version with the pattern's first group; cached. */
export function versionOf(command: string, args: string[], pattern: RegExp): Promise<string | null> {
  const key = `${command}\0${args.join('\0')}`;
  let cached = versionCache.get(key);
  if (!cached) {
    cached = new Promise((resolve) => {
      execFile(command, args, { timeout: 10_000 }, (_err, stdout, stderr) => {
        const match = pattern.exec(`${stdout}\n${stderr}`);
        resolve(match?.[1] ?? null);
      });
    });
    versionCache.set(key, cached);
  }
  return cached;
}

/** The first of several names found on PATH, with its version. */
export async function firstOnPath(
  names: string[],
  path: string,
  versionArgs: string[],
  pattern: RegExp,
): Promise<{ command: string; version: string | null } | null> {
  for (const name of names) {
    const found = await which(name, path);
    if (found) return { command: found, version: await versionOf(found, versionArgs, pattern) };
  }
  return null;
}

const probeCache = new Map<string, Promise<string | null>>();

/** Runs `command args` once and caches its stdout (null when it fails): for richer probes than a version. */
export function probe(command: string, args: string[]): Promise<string | null> {
  const key = `${command}\0${args.join('\0')}`;
  let cached = probeCache.get(key);
  if (!cached) {
    cached = new Promise((resolve) => {
      execFile(command, args, { timeout: 10_000 }, (err, stdout) => resolve(err ? null : stdout));
    });
    probeCache.set(key, cached);
  }
  return cached;
}
