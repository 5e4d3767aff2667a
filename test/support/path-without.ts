import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * A PATH with every program of this machine's PATH but the named ones: a folder of links to the
 * rest. A real "this program is not installed" for the code under test, which looks it up as usual.
 */
export function pathWithout(dir: string, missing: readonly string[], from: string = process.env.PATH ?? '/usr/bin:/bin'): string {
  mkdirSync(dir, { recursive: true });
  const seen = new Set(readdirSync(dir));
  for (const folder of from.split(path.delimiter)) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue; // a PATH entry that does not exist
    }
    for (const name of names) {
      // The first of a name wins, as a PATH lookup finds it.
      if (seen.has(name) || missing.includes(name)) continue;
      seen.add(name);
      symlinkSync(path.join(folder, name), path.join(dir, name));
    }
  }
  return dir;
}
