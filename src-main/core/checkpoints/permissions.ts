import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { holdFolder, openBeneath } from '../fs/no-follow-open';
import type { FlatEntry } from './git-objects';
import type { ScannedEntry } from './workspace-scan';

// A git tree keeps a file's mode as 644 or 755 (and 040000 for a folder): a `secret.txt` at 600 came back
// 644 after a rewind, world-readable, and `.git/objects/*` at 444 came back 644. So each snapshot keeps,
// beside its tree, the permission bits of every path whose bits are not what the tree implies (a
// manifest blob, one `<octal> <path>` line each), and a restore sets exactly those bits — through a
// descriptor opened without following links, so a link the code planted is never chmod-ed through.

/** The bits a tree entry implies when the manifest does not name it. */
export function impliedPerm(kind: 'dir' | 'file', gitMode: string): number {
  return kind === 'dir' || gitMode === '100755' ? 0o755 : 0o644;
}

/** The manifest of a scan ('' when every path has the bits its tree entry implies). */
export function permManifest(entries: readonly ScannedEntry[]): string {
  const lines: string[] = [];
  for (const e of entries) {
    if (e.kind === 'symlink') continue;
    if (e.perm !== impliedPerm(e.kind === 'dir' ? 'dir' : 'file', e.mode)) lines.push(`${e.perm.toString(8)} ${e.path}`);
  }
  return lines.sort((a, b) => a.slice(a.indexOf(' ')).localeCompare(b.slice(b.indexOf(' ')))).join('\n');
}

export function parseManifest(text: string): Map<string, number> {
  const perms = new Map<string, number>();
  for (const line of text.split('\n')) {
    const at = line.indexOf(' ');
    if (at > 0) perms.set(line.slice(at + 1), parseInt(line.slice(0, at), 8) & 0o7777);
  }
  return perms;
}

/** The bits `e` must have after a restore. */
export function wantedPerm(e: FlatEntry, perms: ReadonlyMap<string, number>): number {
  return perms.get(e.path) ?? impliedPerm(e.type === 'tree' ? 'dir' : 'file', e.mode);
}

/**
 * Sets every file's and folder's bits of `target` to what the manifest says (links have none of their
 * own). Returns how many changed. `skip`: paths a restore leaves alone (a present `.git`).
 */
export async function applyPermissions(
  root: string,
  target: readonly FlatEntry[],
  perms: ReadonlyMap<string, number>,
  skip: (path: string) => boolean,
): Promise<number> {
  let changed = 0;
  for (const e of target) {
    if (e.mode === '120000' || skip(e.path)) continue;
    const wanted = wantedPerm(e, perms);
    const segments = e.path.split('/');
    let handle;
    try {
      if (e.type === 'tree') {
        const held = await holdFolder(root, segments);
        try {
          handle = await open(held.self, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | held.openFlags);
        } finally {
          await held.close();
        }
      } else handle = await openBeneath(root, segments, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch {
      continue; // gone, or a link where the tree has a file: the restore's own steps dealt with it
    }
    try {
      if (((await handle.stat()).mode & 0o7777) !== wanted) {
        await handle.chmod(wanted);
        changed++;
      }
    } finally {
      await handle.close();
    }
  }
  return changed;
}
