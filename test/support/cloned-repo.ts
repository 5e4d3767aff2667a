import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh folder in the system temp dir, by its real path (macOS's /var is a link to /private/var). */
export function realTempDir(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Writes each file (path relative to `folder` → text), making its folders first. */
export function writeFiles(folder: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(folder, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/**
 * A git repository standing for one the person cloned (a stranger's files: its instructions, skills,
 * commands and hooks are untrusted until the person trusts the folder): `<root>/<name>`, in a fresh temp
 * folder `root` the caller removes, with `files` written into it.
 */
export function clonedRepo(prefix: string, name: string, files: Record<string, string> = {}): { root: string; repo: string } {
  const root = realTempDir(prefix);
  const repo = path.join(root, name);
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  writeFiles(repo, files);
  return { root, repo };
}
