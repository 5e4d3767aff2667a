import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Bytes a store takes on disk (its files, not following links), for Settings and pruning. */
export async function storeBytes(dir: string): Promise<number> {
  let total = 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const full = path.join(dir, name);
    const st = await lstat(full).catch(() => null);
    if (!st) continue;
    total += st.isDirectory() ? await storeBytes(full) : st.size;
  }
  return total;
}
