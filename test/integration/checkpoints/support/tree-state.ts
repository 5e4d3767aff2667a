import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * Everything in a folder as a test compares it: kind, mode as git keeps it (executable or not: 755 or
 * 644), and a hash of the content or the link's text.
 */
export function treeState(root: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (skip(r)) continue;
      const full = path.join(dir, name);
      const st = lstatSync(full);
      if (st.isSymbolicLink()) out[r] = `link -> ${readlinkSync(full)}`;
      else if (st.isDirectory()) {
        // Every permission bit, not only git's 644/755 (issue 26, item 2).
        out[r] = `dir ${(st.mode & 0o7777).toString(8)}`;
        walk(full, r);
      } else out[r] = `file ${(st.mode & 0o7777).toString(8)} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
    }
  };
  walk(root, '');
  return out;
}
