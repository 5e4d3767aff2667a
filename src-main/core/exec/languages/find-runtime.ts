import { accessSync, constants, existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { keepLookup, keptLookup, walkedFolders } from './kept-lookups';
import type { Probing } from './probing';

// Looking for programs and asking their version, through the route's Probing (probing.ts), which
// decides where a program may be run to answer.

/** Through the thread pool: `which` walks PATH with it, whose folders may be slow to answer. */
export async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The same, without the thread pool, for the interpreter a session runs (or is about to): every run
 * looks it up again, and a hop to a worker thread and back was a wake-up of main more per warm run.
 * Not for walking PATH, whose folders may be slow mounts that would hold main's event loop.
 */
export function isExecutableNow(path: string): boolean {
  // A missing file (the workspace's .venv/bin/python, looked for at every run) is told without an
  // exception: accessSync's error and its stack were most of what this look cost (issue 37).
  if (!existsSync(path)) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first executable called `name` on PATH (or name itself when it is a path). Relative PATH
 * entries ("." or "bin") are skipped: they would be looked up from the app's own folder, and in the
 * CLI that folder can be the workspace.
 */
export async function which(name: string, path: string): Promise<string | null> {
  if (isAbsolute(name)) return (await isExecutable(name)) ? name : null;
  // The last answer, while nothing that decided it changed: a few synchronous stats (kept-lookups.ts).
  const known = keptLookup(name, path);
  if (known !== undefined) return known;
  const started = performance.now();
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of walkedFolders(path)) {
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (await isExecutable(candidate)) {
        keepLookup(name, path, candidate, performance.now() - started);
        return candidate;
      }
    }
  }
  return null;
}

/** Runs `command args` and extracts a version with the pattern's first group. */
export async function versionOf(probing: Probing, command: string, args: string[], pattern: RegExp): Promise<string | null> {
  const answer = await probing.ask(command, args);
  return pattern.exec(`${answer.stdout}\n${answer.stderr}`)?.[1] ?? null;
}

/** The first of several names found on PATH, with its version. */
export async function firstOnPath(
  probing: Probing,
  names: string[],
  path: string,
  versionArgs: string[],
  pattern: RegExp,
): Promise<{ command: string; version: string | null } | null> {
  for (const name of names) {
    const found = await which(name, path);
    if (found) return { command: found, version: await versionOf(probing, found, versionArgs, pattern) };
  }
  return null;
}

/** What `command args` printed on stdout, or null when it failed: for richer probes than a version. */
export async function probe(probing: Probing, command: string, args: string[], needs?: readonly string[]): Promise<string | null> {
  const answer = await probing.ask(command, args, { ...(needs ? { needs } : {}) });
  return answer.ok ? answer.stdout : null;
}
