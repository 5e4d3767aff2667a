export interface TreeEntry {
  /** '100644' file, '100755' executable, '120000' symlink, '040000' folder. */
  mode: string;
  type: 'blob' | 'tree';
  sha: string;
  name: string;
}

/**
 * A git tree object's content, as `git mktree` would write it: one "<mode> <name>\0<20-byte id>" per
 * entry, folders' mode written without its leading zero, entries in git's order — by the bytes of the
 * name, a folder's name compared as if it ended in '/'. Any other order makes a tree git calls broken
 * (`git fsck`: "not properly sorted"); test/unit/checkpoints/tree-encoding.test.ts holds each rule
 * against git's own mktree.
 */
export function encodeTree(entries: TreeEntry[]): Buffer {
  const keyed = entries.map((e) => ({ e, name: Buffer.from(e.name, 'utf8') }));
  const sortKey = (k: { e: TreeEntry; name: Buffer }) => (k.e.type === 'tree' ? Buffer.concat([k.name, SLASH]) : k.name);
  keyed.sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
  const parts: Buffer[] = [];
  for (const { e, name } of keyed) {
    if (!/^[0-9a-f]{40}$/.test(e.sha)) throw new Error(`not an object id: ${e.sha}`);
    if (name.length === 0 || name.includes(0) || name.includes(SLASH[0] ?? 0x2f))
      throw new Error(`not a tree entry name: ${JSON.stringify(e.name)}`);
    parts.push(Buffer.from(`${e.mode.replace(/^0+/, '')} `, 'utf8'), name, ZERO, Buffer.from(e.sha, 'hex'));
  }
  return Buffer.concat(parts);
}

const SLASH = Buffer.from('/');
const ZERO = Buffer.from([0]);
